// After a final answer: uploads the local files it links, when they lie under the session's working directory.
import { realpath } from 'node:fs/promises';
import type { Logger } from '../../platform/log.js';
import { expandHome } from '../../platform/paths.js';
import type { BotConfig } from '../../shared/config.js';
import { postItems, type PostOutcome, type PostTarget } from './post-items.js';
import { ANSWER_FILE_LIMITS, insideRoots, localLinkTargets, resolveLinked, type FileAccess } from './answer-links.js';

/** Where a session's files may be sent from (answer links and `larkmux send` alike): its folder and answerFileRoots. */
export function sessionFileAccess(bot: Pick<BotConfig, 'answerFileRoots'>, cwd: string, home: string): FileAccess {
  return { roots: [cwd, ...bot.answerFileRoots.map((r) => expandHome(r))], home };
}

export interface AnswerFilesOptions {
  target: PostTarget;
  /** Relative links are relative to it. */
  cwd: string;
  /** Where files may come from (see sessionFileAccess). */
  access: FileAccess;
  log: Logger;
  /** Tells the topic which linked files were not sent and why (the caller words it in the bot's locale). */
  notSent?: (refused: { path: string; reason: 'outside' | 'missing' | 'failed'; detail?: string }[]) => Promise<void>;
}

async function real(p: string): Promise<string | null> {
  return realpath(p).catch(() => null);
}

/** Sends the files an answer links; returns what happened to each (tests and logs). */
export async function sendAnswerFiles(text: string, opts: AnswerFilesOptions): Promise<PostOutcome[]> {
  const targets = localLinkTargets(text).slice(0, ANSWER_FILE_LIMITS.maxFilesPerAnswer);
  if (targets.length === 0) return [];
  const roots = (await Promise.all(opts.access.roots.map(real))).filter((r): r is string => r !== null);
  const allowed: string[] = [];
  const refused: { path: string; reason: 'outside' | 'missing' | 'failed'; detail?: string }[] = [];
  for (const t of targets) {
    // Symlinks are resolved before the check, so a link inside the folder cannot point outside it.
    const abs = await real(resolveLinked(opts.cwd, t));
    if (abs === null) refused.push({ path: t, reason: 'missing' });
    else if (!insideRoots(abs, roots)) refused.push({ path: t, reason: 'outside' });
    else allowed.push(abs);
  }
  const outcomes = await postItems(opts.target, allowed.map((path) => ({ kind: 'file' as const, path })), { access: opts.access });
  for (const o of outcomes) if (!o.ok) refused.push({ path: o.item, reason: 'failed', detail: o.error });
  // Only links to things that look like files the user meant are worth a note: missing ones are often examples.
  const worthTelling = refused.filter((r) => r.reason !== 'missing');
  if (worthTelling.length) await opts.notSent?.(worthTelling);
  opts.log.info({ linked: targets.length, sent: outcomes.filter((o) => o.ok).length, refused: refused.map((r) => r.reason) }, 'answer files');
  return outcomes;
}
