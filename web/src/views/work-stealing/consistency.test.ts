/**
 * One state, one story over the work-stealing lesson (conservative and
 * aggressive): at 120 sampled algorithm steps of each recorded lesson
 * trace, no view contradicts another or the state, and no steal caption
 * calls a flag down that the state shows up (views/consistency.ts).
 */
import '../families';
import { describeLesson } from '../consistency';

describeLesson('work-stealing lesson', ['ws-conservative', 'ws-aggressive'], 2);
