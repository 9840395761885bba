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


  // phone: web terminal view controls (text size, fit-to-width)
  'webterm.view.controls': 'View',
  'webterm.view.smaller': 'A−',
  'webterm.view.smallerLabel': 'Smaller text',
  'webterm.view.larger': 'A+',
  'webterm.view.largerLabel': 'Larger text',
  'webterm.view.size': '{px} px',
  'webterm.view.fit': 'Fit width',
  'webterm.view.text': 'Text',
  'webterm.view.textLabel': "Show the screen as text that wraps at this screen's width",
  'webterm.view.fitLabel': "Reflow the terminal to this screen's width (the original size comes back when you leave)",
} as const satisfies Record<string, string>;
