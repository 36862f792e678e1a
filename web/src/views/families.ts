/**
 * The scheduler families the web app knows: one module per family folder,
 * registered here in one list (the order of the Classroom's view tabs of
 * equal rank follows it). Adding a family is one line here plus its
 * folder; see docs/adding-a-family.md ("Web side").
 *
 * Importing this file registers them, so it also re-exports the scheduler
 * profile queries (`profiles.ts`): whoever asks a scheduler's color or
 * family through it gets every family's answer. Files a family module
 * imports read `profiles.ts` directly (no import circle).
 */
import { coloring } from './coloring';
import { early } from './early';
import { epaxos, late } from './late-epaxos';
import { registerFamily, type FamilyModule } from './family';
import { repartitioning } from './repartitioning';
import { sequential } from './sequential';
import { workStealing } from './work-stealing';

export const FAMILIES: readonly FamilyModule[] = [
  sequential,
  early,
  workStealing,
  repartitioning,
  coloring,
  late,
  epaxos,
];

for (const m of FAMILIES) registerFamily(m);

export {
  familyOfRun,
  mechanismWord,
  profileOf,
  schedulerColor,
  type Family,
  type SchedulerProfile,
  type SyncMechanism,
} from './profiles';
