// Where the kernel names each open descriptor of this process (Linux's /proc/self/fd), looked up once at load.
import { existsSync } from 'node:fs';

/**
 * `<dir>/<fd>` stands for what descriptor fd has open: a name resolved under an open folder's entry stays in that
 * folder, and reading the entry's link says which file was really opened, even if a path component was swapped for a
 * link after it was checked. Null where there is no such folder (macOS): callers then use the checked path.
 */
export const PROC_FD_DIR: string | null = existsSync('/proc/self/fd') ? '/proc/self/fd' : null;
