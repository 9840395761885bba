// English messages: the reference catalogue. Keys are `area.what`; `{name}` marks a parameter.
export const en = {
  'common.larkmux': 'larkmux',

  // newcomer: first-run problems told in the chat with their fix
  'newcomer.cliMissing': '**{program}** is not installed on the server, so this session could not start. Install it there with `{install}`, then send your message again.',
  'newcomer.cwdMissing': 'The folder `{path}` does not exist on the server, so this session could not start. Create it there (`mkdir -p {path}`), or switch with /cd, then send your message again.',
  // sec-daemon: security replies (control characters, selections, pairing)
  'security.controlChars': 'Your message had {count} control character(s); they were typed as visible symbols (␛, ␃ …), not as keys. To press Esc or Ctrl+C, use the key row on the card.',
  'security.selectionNotYours': 'The CLI is waiting for an answer that only the person who asked, or an operator, can give. Your message was not sent to the CLI (it would have answered that question); send it again once the question is answered.',
  'security.pairingWrong': 'That is not the pairing code ({left} tries left).',
  'security.pairingLocked': 'Too many wrong pairing codes from you: pairing is closed to your account until larkmux restarts. Other people can still pair.',
  // ── web terminal access (sec-web): the write-link page and refusals ──
  'webLink.title': 'larkmux terminal: write access',
  'webLink.explain': 'This private link lets you type into the terminal. It works once and only for you.',
  'webLink.button': 'Open the terminal with write access',
  'webLink.invalid': 'This link is not valid (any more). Open the link on the latest card, or ask for a new write link with /term.',
  'webTerm.backToLive': 'Back to live ⤓',
  'webTerm.off': 'The web terminal is not enabled on this server.',
  'webTerm.viewRotated': 'Made a new view link for this session; old card links stop working. {connections} open view(s) were closed.',
} as const satisfies Record<string, string>;
