// What Codex itself recorded: the UserMessage items of its rollouts under $HOME/.codex/sessions — the proof that a
// prompt reached Codex (and how many times), independent of what the daemon believes it typed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type RolloutLine = { type?: string; payload?: { type?: string; turn_id?: string; item?: { type?: string; content?: { text?: string }[] } } };

/** The UserMessage texts of every rollout under `home`, each with its turn id, oldest first. */
export function codexPrompts(home: string): { text: string; turnId: string | undefined }[] {
  const root = join(home, '.codex', 'sessions');
  if (!existsSync(root)) return [];
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')).sort();
  return files.flatMap((f) =>
    readFileSync(join(root, f), 'utf8').split('\n').filter(Boolean).flatMap((l) => {
      const rec = JSON.parse(l) as RolloutLine;
      const item = rec.payload?.item;
      if (rec.type !== 'event_msg' || rec.payload?.type !== 'item_completed' || item?.type !== 'UserMessage') return [];
      return [{ text: (item.content ?? []).map((c) => c.text ?? '').join(''), turnId: rec.payload.turn_id }];
    }),
  );
}
