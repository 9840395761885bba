// Where saveAttachments writes a message's files: the session's upload folder on this machine (platform/upload-dir.ts),
// or on the session's host (workers/remote-upload.ts). One shape for both, so the rules of names and limits are one.
import { UploadDir } from '../../platform/upload-dir.js';

export interface UploadFolder {
  /** Writes a new file (never over an existing one); throws UploadBlocked, or an Error saying why it failed. */
  write(name: string, bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Opens `folder` under `cwd`; `refused` names the level that is a link or not a folder (nothing was written). */
export type OpenUploadFolder = (cwd: string, folder: string) => Promise<{ ok: true; dir: UploadFolder } | { ok: false; refused: string }>;

/** A level of the upload folder is a link or not a folder (found only when writing, on a host). */
export class UploadBlocked extends Error {
  constructor(readonly level: string) {
    super(`${level} is a link or not a folder`);
  }
}

export const localUploadFolder: OpenUploadFolder = (cwd, folder) => UploadDir.open(cwd, folder);
