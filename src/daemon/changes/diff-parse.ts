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
    const plus = headerPath(/^\+\+\+ (.*)$/m.exec(text)?.[1], 'b/');
    const minus = headerPath(/^--- (.*)$/m.exec(text)?.[1], 'a/');
    const header = /^diff --git a\/(.*) b\/(.*)$/m.exec(text);
    const path = plus && plus !== '/dev/null' ? plus : minus && minus !== '/dev/null' ? minus : (header?.[2] ?? '');
    return { path, text };
  });
}

/**
 * A path from a `---`/`+++` line: git ends it with a tab when it holds a space, and C-quotes it ("a\tb", octal bytes)
 * when it holds a quote, a backslash or a control character.
 */
function headerPath(raw: string | undefined, prefix: string): string | undefined {
  if (raw === undefined) return undefined;
  let p = raw.replace(/\t$/, '');
  if (p.startsWith('"') && p.endsWith('"')) p = unquoteC(p.slice(1, -1));
  return p.startsWith(prefix) ? p.slice(prefix.length) : p;
}

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

function unquoteC(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const oct = /^[0-7]{3}/.exec(s.slice(i + 1))?.[0];
    if (oct) {
      bytes.push(parseInt(oct, 8));
      i += 3;
    } else {
      const next = s[i + 1] ?? '';
      bytes.push(C_ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
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
