// What the web diff page (/s/<id>/diff) receives from diff.json: the session's last change set, per file.
import { z } from 'zod';

export const DiffPageDataSchema = z.strictObject({
  /** When the diff was taken (ms since epoch); null when no turn has ended with changes yet. */
  at: z.number().nullable(),
  files: z.array(z.strictObject({ path: z.string(), added: z.number().int().nullable(), deleted: z.number().int().nullable() })),
  fileDiffs: z.array(z.strictObject({ path: z.string(), text: z.string() })),
  patchCut: z.boolean(),
});
export type DiffPageData = z.infer<typeof DiffPageDataSchema>;
