// After a final answer: uploads the local files it links, when they lie under the session's working directory.
import type { Logger } from '../../platform/log.js';
import { expandHome } from '../../platform/paths.js';
import type { BotConfig } from '../../shared/config.js';
import { postItems, type PostOutcome, type PostTarget } from './post-items.js';
import { ANSWER_FILE_LIMITS, localLinkTargets, resolveLinked } from './answer-links.js';
import type { FileAccess } from '../../platform/file-access.js';

/** Where a session's files may be sent from (answer links and `larkmux send` alike): its folder and answerFileRoots. */
export function sessionFileAccess(bot: Pick<BotConfig, 'answerFileRoots'>, cwd: string, home: string): FileAccess {
  return { roots: [cwd, ...bot.answerFileRoots.map((r) => expandHome(r))], home };
}

type NotSent = { path: string; reason: 'outside' | 'missing' | 'failed'; detail?: string };

export interface AnswerFilesOptions {
  target: PostTarget;
  /** Relative links are relative to it. */
  cwd: string;
  /** Where files may come from (see sessionFileAccess). */
  access: FileAccess;
  log: Logger;
  /** Tells the topic which linked files were not sent and why (the caller words it in the bot's locale). */
  notSent?: (refused: NotSent[]) => Promise<void>;
}

/** Sends the files an answer links; returns what happened to each (tests and logs). */
export async function sendAnswerFiles(text: string, opts: AnswerFilesOptions): Promise<PostOutcome[]> {
  const targets = localLinkTargets(text).slice(0, ANSWER_FILE_LIMITS.maxFilesPerAnswer);
  if (targets.length === 0) return [];
  // Each link is resolved (symlinks too, so a link inside the folder cannot point outside it) and judged by the read
  // itself, in its lane and within its deadline (local-file-read.ts): a link to a hung file system holds nothing here.
  const items = targets.map((t) => ({ kind: 'file' as const, path: resolveLinked(opts.cwd, t) }));
  const outcomes = await postItems(opts.target, items, { access: opts.access });
  const refused: NotSent[] = [];
  const failed: NotSent[] = [];
  outcomes.forEach((o, i) => {
    if (o.ok) return;
    if (o.refused === 'missing' || o.refused === 'outside') refused.push({ path: targets[i]!, reason: o.refused });
    else failed.push({ path: o.item, reason: 'failed', detail: o.error });
  });
  const notSent = [...refused, ...failed];
  // Only links to things that look like files the user meant are worth a note: missing ones are often examples.
  const worthTelling = notSent.filter((r) => r.reason !== 'missing');
  if (worthTelling.length) await opts.notSent?.(worthTelling);
  opts.log.info({ linked: targets.length, sent: outcomes.filter((o) => o.ok).length, refused: notSent.map((r) => r.reason) }, 'answer files');
  return outcomes;
}
