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
import { usageCommand } from './usage.js';
import { resumeCommand } from './resume.js';
import { atCommand, everyCommand, inCommand } from './schedule-create.js';
import { schedulesCommand } from './schedules.js';
import { keyButtons, selectionButtons } from './buttons.js';
import { busyButtons } from './busy-buttons.js';
import type { ButtonCommand, Command, TapHandlers, TapName } from './types.js';

export const CHAT_COMMANDS: readonly Command[] = [
  makeHelpCommand(() => CHAT_COMMANDS),
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
  usageCommand,
  resumeCommand,
  inCommand,
  atCommand,
  everyCommand,
  schedulesCommand,
];

/** Commands reached only by card buttons. */
export const BUTTON_COMMANDS: readonly ButtonCommand[] = [keyButtons, selectionButtons, busyButtons];

/** A card button resolved: the command it belongs to (whose level it takes) and what it does. */
export interface TapEntry {
  command: Command | ButtonCommand;
  run: NonNullable<TapHandlers[TapName]>;
}

export interface CommandTable {
  /** Name or alias → command. */
  byName: ReadonlyMap<string, Command>;
  /** Every name and alias: the daemon's set for classification. */
  names: ReadonlySet<string>;
  /** Card button → its command: every action a card can carry has exactly one. */
  byTap: ReadonlyMap<TapName, TapEntry>;
}

/** Indexes the commands; a name or a card action used twice is a bug in the table and throws. */
export function buildCommandTable(commands: readonly Command[], buttons: readonly ButtonCommand[] = []): CommandTable {
  const byName = new Map<string, Command>();
  for (const c of commands) {
    for (const n of [c.name, ...c.aliases]) {
      if (byName.has(n)) throw new Error(`command name "${n}" is used twice`);
      byName.set(n, c);
    }
  }
  const byTap = new Map<TapName, TapEntry>();
  for (const command of [...commands, ...buttons]) {
    for (const [action, run] of Object.entries(command.taps ?? {}) as [TapName, TapEntry['run']][]) {
      if (byTap.has(action)) throw new Error(`card action "${action}" is answered twice`);
      byTap.set(action, { command, run });
    }
  }
  return { byName, names: new Set(byName.keys()), byTap };
}

export const COMMAND_TABLE: CommandTable = buildCommandTable(CHAT_COMMANDS, BUTTON_COMMANDS);
