/**
 * One state, one story over the early lessons (barriers, busy-wait cycles,
 * the mapping lesson): at 120 sampled algorithm steps of each recorded
 * lesson trace, no view contradicts another or the state (views/consistency.ts).
 */
import '../families';
import { describeLesson } from '../consistency';

describeLesson('early lessons (barriers, cycles, mapping)', ['early', 'busy-wait'], 3);
