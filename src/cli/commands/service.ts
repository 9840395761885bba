// `larkmux service install|status|remove`: larkmux as a systemd user service (`larkmux start --foreground`).
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { SERVICE_UNIT_NAME, serviceUnitPath, serviceUnitText } from '../service/unit.js';
import { systemctlUser } from '../service/systemctl.js';
import { installedBin } from '../../platform/installed-bin.js';
import { EXIT, type CliCommand, type CliContext } from '../types.js';

/** bin/larkmux.js of this installation, through any symlink (npm's global bin is one), from src/ or dist/ alike. */
function larkmuxScript(): string {
  return realpathSync(installedBin());
}

function unitFor(ctx: CliContext): string {
  return serviceUnitText({ node: process.execPath, script: larkmuxScript(), larkmuxHome: ctx.paths.home, path: ctx.env.PATH });
}

function install(ctx: CliContext, file: string): number {
  const text = unitFor(ctx);
  if (ctx.flags.print) {
    ctx.out(`# ${file}`);
    ctx.out(text.trimEnd());
    return EXIT.ok;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  ctx.out(`wrote ${file} (runs \`larkmux start --foreground\` with LARKMUX_HOME=${ctx.paths.home})`);
  ctx.out('next: stop a daemon you started by hand, then:');
  ctx.out('  systemctl --user daemon-reload && systemctl --user enable --now larkmux');
  ctx.out('  loginctl enable-linger "$USER"   # keeps it running after you log out');
  return EXIT.ok;
}

function status(ctx: CliContext, file: string): number {
  if (!existsSync(file)) {
    ctx.out(`service: not installed (no ${file}); \`${ctx.cmd} service install\` writes it`);
    return EXIT.notRunning;
  }
  ctx.out(`service: installed (${file})`);
  const res = systemctlUser(['is-active', SERVICE_UNIT_NAME], ctx.env);
  if (!res.usable) {
    ctx.out(`systemd: cannot ask: ${res.why}; run \`${ctx.cmd} start\` instead, or use the unit where a user systemd runs`);
    return EXIT.ok;
  }
  ctx.out(`systemd: ${res.stdout || 'unknown'}`);
  return res.code === 0 ? EXIT.ok : EXIT.notRunning;
}

function remove(ctx: CliContext, file: string): number {
  if (!existsSync(file)) {
    ctx.out(`service: not installed (no ${file}); nothing to remove`);
    return EXIT.ok;
  }
  // Stopping the unit stops the daemon only (KillMode=process): the CLIs in tmux keep running.
  const stopped = systemctlUser(['disable', '--now', SERVICE_UNIT_NAME], ctx.env);
  rmSync(file);
  if (stopped.usable) systemctlUser(['daemon-reload'], ctx.env);
  ctx.out(`removed ${file}${stopped.usable ? ' (disabled and stopped; CLIs keep running in tmux)' : ''}`);
  if (!stopped.usable) ctx.out(`systemd: not told (${stopped.why})`);
  return EXIT.ok;
}

const ACTIONS: Record<string, (ctx: CliContext, unitFile: string) => number> = { install, status, remove };

/** One action, named as the only argument; the unit file is where systemd looks for this user's units. */
function runService(ctx: CliContext): Promise<number> {
  const action = ctx.args.length === 1 ? ACTIONS[ctx.args[0] ?? ''] : undefined;
  if (action) return Promise.resolve(action(ctx, serviceUnitPath(ctx.env, ctx.env.HOME || homedir())));
  ctx.err(`larkmux service: expected one action, install [--print], status or remove (got "${ctx.args.join(' ')}")`);
  return Promise.resolve(EXIT.usage);
}

export const service: CliCommand = {
  name: 'service',
  summary: 'Run larkmux as a systemd user service: `install` (or `--print`), `status`, `remove`',
  params: 'install|status|remove',
  flags: [{ name: 'print', description: 'with install: show the unit instead of writing it' }],
  run: runService,
};
