// Every `larkmux` subcommand, in the order `larkmux help` lists them.
import type { CliCommand } from '../types.js';
import { consoleCommand } from './console.js';
import { doctor } from './doctor.js';
import { fonts } from './fonts.js';
import { hosts } from './hosts.js';
import { logs } from './logs.js';
import { restart } from './restart.js';
import { service } from './service.js';
import { setup } from './setup.js';
import { start } from './start.js';
import { status } from './status.js';
import { stop } from './stop.js';
import { sessions } from './sessions.js';
import { send } from './send.js';
import { where } from './where.js';
import { usage } from './usage.js';
import { schedules } from './schedules.js';

export const COMMANDS: CliCommand[] = [setup, start, stop, restart, status, logs, doctor, fonts, sessions, where, send, usage, schedules, consoleCommand, service, hosts];
