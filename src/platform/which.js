// Finds a program on PATH without running a shell.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
export function which(name, env = process.env) {
    for (const dir of (env.PATH ?? '').split(delimiter)) {
        if (!dir)
            continue;
        const p = join(dir, name);
        try {
            accessSync(p, constants.X_OK);
            return p;
        }
        catch {
            /* not here */
        }
    }
    return null;
}
//# sourceMappingURL=which.js.map