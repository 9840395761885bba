// `larkmux where`: run inside a session's pane, prints which session, bot, topic and pane it is (exit 3 elsewhere).
import { WhereResultSchema } from '../../shared/control-protocol.js';
import { NOT_IN_PANE, askFromPane, proveCaller, sayNoAnswer } from '../pane-caller.js';
import { EXIT, type CliCommand } from '../types.js';

export const where: CliCommand = {
  name: 'where',
  summary: 'Inside a session\'s pane: print its session, bot, topic and pane',
  flags: [{ name: 'json', description: 'Print machine-readable JSON' }],
  async run({ flags, paths, out, err }) {
    const res = await askFromPane(paths.controlSocket, { cmd: 'where', caller: proveCaller() }, WhereResultSchema);
    if (res.kind !== 'answer') return sayNoAnswer(res, 'where', out, err);
    const w = res.data;
    if (flags.json) out(JSON.stringify(w, null, 2));
    if (!w.inPane) {
      if (!flags.json) out(NOT_IN_PANE);
      return EXIT.notInPane;
    }
    if (!flags.json) {
      out(`session  ${w.session}`);
      out(`bot      ${w.bot}`);
      out(`cli      ${w.cli}`);
      out(`cwd      ${w.cwd}`);
      out(`topic    ${w.topic.chatId}${w.topic.scope === 'thread' ? ` thread ${w.topic.anchorId}` : ''}`);
      out(`pane     ${w.pane.tmuxSession} ${w.pane.paneId} ${w.pane.tty}`);
    }
    return EXIT.ok;
  },
};
