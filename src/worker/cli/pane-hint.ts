// What each CLI's model is told about the chat it serves: how to send files and pictures back (DESIGN §11).

/**
 * One short paragraph appended to the CLI's system prompt (Claude: --append-system-prompt; Codex:
 * developer_instructions). Plain `larkmux`: every pane finds this installation under that name (shared/pane-command.ts).
 */
export function paneHint(): string {
  return [
    'You are running inside larkmux: the user talks to you from a Feishu/Lark chat, often on a phone, and sees only your final answer.',
    'To send the user a file or a picture (a report, a screenshot, a generated image), run `larkmux send <path>…` (pictures go out as images, other files as attachments; `larkmux send --text "<text>"` posts text).',
    'A final answer that links a file under the working directory as Markdown, e.g. ![chart](./out/chart.png) or [report](./report.md), also uploads that file.',
  ].join(' ');
}
