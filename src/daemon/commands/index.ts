// The daemon's command table: one entry per commands/<name>.ts; everything else looks commands up here.
import { adoptCommand } from './adopt.js';
import { cdCommand } from './cd.js';
import { closeCommand } from './close.js';
import { diffCommand } from './diff.js';
import { displayCommand } from './display.js';
import { grantCommand } from './grant.js';
import { makeHelpCommand } from './help.js';
import { repoCommand } from './repo.js';
import { revokeTermCommand } from './revoke-term.js';
import { revokeCommand } from './revoke.js';
import { screenCommand } from './screen.js';
import { sessionsCommand } from './sessions.js';
import { statusCommand } from './status.js';
import { stopCommand } from './stop.js';
import { termCommand } from './term.js';
import type { Command } from './types.js';

export const COMMANDS: readonly Command[] = [
  makeHelpCommand(() => COMMANDS),
  statusCommand,
  stopCommand,
  closeCommand,
  cdCommand,
  repoCommand,
  displayCommand,
  screenCommand,
  diffCommand,
  termCommand,
  revokeTermCommand,
  sessionsCommand,
  grantCommand,
  revokeCommand,
  adoptCommand,
];

export interface CommandTable {
  /** Name or alias → command. */
  byName: ReadonlyMap<string, Command>;
  /** Every name and alias: the daemon's set for classification. */
  names: ReadonlySet<string>;
}

/** Indexes a command list; a name used twice is a bug in the table and throws. */
export function buildCommandTable(commands: readonly Command[]): CommandTable {
  const byName = new Map<string, Command>();
  for (const c of commands) {
    for (const n of [c.name, ...c.aliases]) {
      if (byName.has(n)) throw new Error(`command name "${n}" is used twice`);
      byName.set(n, c);
    }
  }
  return { byName, names: new Set(byName.keys()) };
}

export const COMMAND_TABLE: CommandTable = buildCommandTable(COMMANDS);
