// English messages: the reference catalogue. Keys are `area.what`; `{name}` marks a parameter.
export const en = {
  'common.larkmux': 'larkmux',
} as const satisfies Record<string, string>;
