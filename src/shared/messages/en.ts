// English messages: the reference catalogue. Keys are `area.what`; `{name}` marks a parameter.
export const en = {
  'common.larkmux': 'larkmux',

  // newcomer: first-run problems told in the chat with their fix
  'newcomer.cliMissing': '**{program}** is not installed on the server, so this session could not start. Install it there with `{install}`, then send your message again.',
  'newcomer.cwdMissing': 'The folder `{path}` does not exist on the server, so this session could not start. Create it there (`mkdir -p {path}`), or switch with /cd, then send your message again.',
} as const satisfies Record<string, string>;
