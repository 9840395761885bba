// Reading `git diff` output into what a change card shows: files with +/− counts, and the first hunk of the largest one.

export interface FileChange {
  path: string;
  /** Lines added and deleted; null for a binary file (git prints "-"). */
  added: number | null;
  deleted: number | null;
}

export const CHANGE_SUMMARY = {
  /** A phone shows about this many file lines before the card gets long; the rest is counted, and on the diff page. */
  maxFiles: 15,
  /** The first hunk of the largest change, cut to what a glance reads. */
  hunkLines: 24,
  hunkChars: 2400,
} as const;

/** `git diff --numstat -z`: "added\tdeleted\tpath\0" per file (renames are off, so one path each). */
export function parseNumstatZ(out: string): FileChange[] {
  const files: FileChange[] = [];
  for (const rec of out.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t([\s\S]+)$/.exec(rec.replace(/^\n/, ''));
    if (!m) continue;
    files.push({ path: m[3]!, added: m[1] === '-' ? null : Number(m[1]), deleted: m[2] === '-' ? null : Number(m[2]) });
  }
  return files;
}

/** A patch cut into its files, by the path after `+++ b/` (or `--- a/` for a deleted file). */
export function splitPatch(patch: string): { path: string; text: string }[] {
  const chunks = patch.split(/^(?=diff --git )/m).filter((c) => c.startsWith('diff --git '));
  return chunks.map((text) => {
    const plus = /^\+\+\+ (?:b\/)?(.*)$/m.exec(text)?.[1];
    const minus = /^--- (?:a\/)?(.*)$/m.exec(text)?.[1];
    const header = /^diff --git a\/(.*) b\/(.*)$/m.exec(text);
    const path = plus && plus !== '/dev/null' ? plus : minus && minus !== '/dev/null' ? minus : (header?.[2] ?? '');
    return { path, text };
  });
}

/** The first hunk of one file's diff (its `@@` line and body), cut to `maxLines` lines and `maxChars` characters. */
export function firstHunk(fileDiff: string, maxLines: number = CHANGE_SUMMARY.hunkLines, maxChars: number = CHANGE_SUMMARY.hunkChars): string | undefined {
  const lines = fileDiff.split('\n');
  const start = lines.findIndex((l) => l.startsWith('@@'));
  if (start < 0) return undefined;
  const body: string[] = [lines[start]!];
  for (const l of lines.slice(start + 1)) {
    if (l.startsWith('@@') || l.startsWith('diff --git ')) break;
    body.push(l);
  }
  while (body.length > 1 && body[body.length - 1] === '') body.pop();
  let out = body.slice(0, maxLines).join('\n');
  if (out.length > maxChars) out = out.slice(0, maxChars);
  return body.length > maxLines || out.length < body.join('\n').length ? `${out}\n…` : out;
}

export interface ChangeSummary {
  files: FileChange[];
  /** Files beyond CHANGE_SUMMARY.maxFiles (counted, not listed). */
  moreFiles: number;
  /** The first hunk of the file with the most changed lines. */
  hunk?: { path: string; text: string };
}

/** What the change card shows, from numstat and the patch. */
export function summarizeChanges(files: FileChange[], patch: string): ChangeSummary {
  const size = (f: FileChange) => (f.added ?? 0) + (f.deleted ?? 0);
  const largest = [...files].sort((a, b) => size(b) - size(a))[0];
  const diff = largest ? splitPatch(patch).find((p) => p.path === largest.path) : undefined;
  const text = diff ? firstHunk(diff.text) : undefined;
  return {
    files: files.slice(0, CHANGE_SUMMARY.maxFiles),
    moreFiles: Math.max(0, files.length - CHANGE_SUMMARY.maxFiles),
    ...(largest && text ? { hunk: { path: largest.path, text } } : {}),
  };
}
