// The day's upload folder inside a session's folder, opened without following a link at any level, and files written
// into it through that open folder (a pane can make `.larkmux`, `uploads` or the day a link to anywhere; issue 31 item 5).
// The daemon uses it for a session on this machine, a host's agent for one there (worker/host/host-upload.ts), and both
// fill the one UploadFolder shape saveAttachments writes into.
import { constants } from 'node:fs';
import { mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { PROC_FD_DIR } from './proc-fd.js';

/** Each folder is opened as itself: a link (or anything that is not a folder) at that name is refused. */
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** A new file: never an existing one, never through a link. */
const NEW_FILE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * `name` in the open folder `dir` (found at `path`): through its descriptor where the kernel offers one (Linux), so the
 * name stays in that folder even if a path component is swapped for a link after it was checked; else the checked path.
 */
function nameIn(dir: FileHandle, path: string, name: string): string {
  return PROC_FD_DIR ? join(PROC_FD_DIR, String(dir.fd), name) : join(path, name);
}

/** An upload folder as saveAttachments writes into it: UploadDir here, or the session's folder on its host. */
export interface UploadFolder {
  /** Writes a new file; throws UploadBlocked, or an Error saying why it failed. */
  write(name: string, bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Opens `folder` under `cwd`; `refused` names the level that is a link or not a folder (nothing was written). */
export type OpenUploadFolder = (cwd: string, folder: string) => Promise<{ ok: true; dir: UploadFolder } | { ok: false; refused: string }>;

/** A level of the upload folder is a link or not a folder, found only when writing (on a host: one trip per file). */
export class UploadBlocked extends Error {
  constructor(readonly level: string) {
    super(`${level} is a link or not a folder`);
  }
}

export type UploadDirResult = { ok: true; dir: UploadDir } | { ok: false; refused: string };

export class UploadDir {
  private constructor(private readonly handle: FileHandle, private readonly path: string) {}

  /** Opens (creating as needed, mode 0700) `rel` under `cwd`, one level at a time; `refused` names the level that is a link or not a folder. */
  static async open(cwd: string, rel: string): Promise<UploadDirResult> {
    let handle = await open(cwd, constants.O_RDONLY | constants.O_DIRECTORY);
    let path = cwd;
    const done: string[] = [];
    for (const part of rel.split('/')) {
      done.push(part);
      const at = nameIn(handle, path, part);
      try {
        await mkdir(at, { mode: 0o700 }).catch((e: NodeJS.ErrnoException) => {
          if (e.code !== 'EEXIST') throw e;
        });
        const next = await open(at, DIR_FLAGS);
        await handle.close();
        handle = next;
        path = join(path, part);
      } catch (e) {
        await handle.close();
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'EEXIST') return { ok: false, refused: done.join('/') };
        throw e;
      }
    }
    return { ok: true, dir: new UploadDir(handle, path) };
  }

  private at(name: string): string {
    return nameIn(this.handle, this.path, name);
  }

  /**
   * Writes a new file: aside under a hidden name (`.<name>.part`, created new, never through a link), then renamed
   * within this folder. Whoever lists the folder the usual way (ls, a CLI, a watcher skipping dotfiles) sees the file
   * whole or not at all; an aside name without the dot was listed beside finished files while it was written. A write
   * that fails leaves no aside file behind.
   */
  async write(name: string, bytes: Uint8Array): Promise<void> {
    const aside = this.at(`.${name}.part`);
    try {
      const part = await open(aside, NEW_FILE_FLAGS, 0o600);
      try {
        await part.writeFile(bytes);
      } finally {
        await part.close();
      }
      await rename(aside, this.at(name));
    } catch (e) {
      // EEXIST: the aside name was someone else's (never removed here); anything else: ours, half written or unrenamed.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') await unlink(aside).catch(() => { /* not created */ });
      throw e;
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** The upload folder of a session on this machine. */
export const localUploadFolder: OpenUploadFolder = (cwd, folder) => UploadDir.open(cwd, folder);
