// Pure: which local files a final answer links (Markdown images and links); whether one may be sent is
// platform/file-access.ts (shared with a host's `get`).
import { resolve } from 'node:path';

export const ANSWER_FILE_LIMITS = {
  /** An answer that links more files than this sends the first ones only: a listing is not a request to upload. */
  maxFilesPerAnswer: 10,
} as const;

/** `[text](target)` or `![alt](target "title")`, with `<…>` around targets that hold spaces. */
const MARKDOWN_LINK = /!?\[[^\]\n]*\]\(\s*(<[^>\n]+>|[^)\s]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** The local paths an answer links, in order, without duplicates (URLs, anchors and mail links are not files). */
export function localLinkTargets(markdown: string): string[] {
  const out: string[] = [];
  for (const m of markdown.matchAll(MARKDOWN_LINK)) {
    let target = m[1]!;
    if (target.startsWith('<')) target = target.slice(1, -1);
    if (target.startsWith('file://')) target = target.slice('file://'.length);
    else if (SCHEME.test(target) || target.startsWith('#') || target.startsWith('//')) continue;
    target = target.replace(/[?#].*$/, '');
    try {
      target = decodeURIComponent(target);
    } catch {
      /* keep it as written */
    }
    if (target && !out.includes(target)) out.push(target);
  }
  return out;
}

/** A linked path as an absolute path: relative ones are relative to the session's working directory. */
export function resolveLinked(cwd: string, target: string): string {
  return resolve(cwd, target);
}
