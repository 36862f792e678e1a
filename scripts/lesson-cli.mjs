// What the lesson checks (check-classroom.mjs, check-lesson-bookmarks.mjs)
// share: their `--name value` options, the psmr binary they run (`--psmr`,
// default the release build; exit 2 when it is missing) and the lessons of
// web/src/lessons/lessons.json they check (`--lessons a,b`, default all;
// exit 2 when none matches).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);

/** The value after `--name` on the command line, else `dflt`. */
export function opt(name, dflt) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
}

/** Is the bare flag `--name` on the command line? */
export function flag(name) {
  return args.includes(`--${name}`);
}

/** The psmr binary to run; exits 2 with how to build it when it is missing. */
export function psmrBinary() {
  const psmr = opt("psmr", join(root, "engine/target/release/psmr"));
  if (!existsSync(psmr)) {
    console.error(
      `no psmr at ${psmr}: build it with (cd engine && cargo build --release -p psmr-cli)`,
    );
    process.exit(2);
  }
  return psmr;
}

/** The lessons `--lessons a,b` names (default: every lesson); exits 2 when none matches. */
export function chosenLessons() {
  const all = JSON.parse(
    readFileSync(join(root, "web/src/lessons/lessons.json"), "utf8"),
  ).lessons;
  const only = opt("lessons", "");
  const lessons = only
    ? all.filter((l) => only.split(",").includes(l.id))
    : all;
  if (lessons.length === 0) {
    console.error(`no lesson among: ${all.map((l) => l.id).join(", ")}`);
    process.exit(2);
  }
  return lessons;
}
