/**
 * One state, one story for the sequential baseline: at 120 sampled
 * algorithm steps of a recorded run, the scheduler's execution is visible
 * between its start and its end, every step has its pseudo-code line and
 * a plain sentence (views/consistency.ts).
 */
import '../families';
import { describeLesson } from '../consistency';

describeLesson('sequential baseline', ['sequential'], 1);
