// Finds a launch program on the bot's PATH: tmux looks argv[0] up on the *server's* PATH, not the session's `-e PATH`.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** The absolute path of `program` on `pathVar`, or `program` unchanged (tmux will then try its own PATH). */
export function resolveProgram(program: string, pathVar: string | undefined): string {
  if (program.includes('/') || isAbsolute(program) || !pathVar) return program;
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return program;
}
