// Issue 31 item 10 through the real command: doctor and start warn about a config.json others can read while it
// holds a written-out secret, with the exact chmod; once it is 0600 both are quiet about it.
import { chmodSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestHome, type TestHome } from '../support/home.js';
import { endDaemonHome, runLarkmux } from '../support/larkmux-cli.js';

interface Line { level: string; label: string; detail: string; fix?: string }

async function modeLine(home: TestHome): Promise<Line | undefined> {
  const res = await runLarkmux(['doctor', '--json'], home.env);
  return (JSON.parse(res.stdout) as Line[]).find((l) => l.label === 'config mode');
}

describe('config.json readable by others', () => {
  let home: TestHome;
  beforeEach(() => {
    home = makeTestHome();
  });
  afterEach(() => endDaemonHome(home));

  it('doctor and start warn with the chmod fix; 0600 or references only are OK', async () => {
    // The console's CLI gets an API key written out in the file; web port 0 so the daemon starts on a busy machine.
    home.writeConfig({ web: { port: 0 }, console: { cli: 'shell', env: { OPENAI_API_KEY: 'sk-not-a-real-key' } } });
    chmodSync(home.paths.config, 0o644);
    const warn = await modeLine(home);
    expect(warn).toEqual({
      level: 'WARN',
      label: 'config mode',
      detail: `${home.paths.config} (mode 644) holds secrets (console.env.OPENAI_API_KEY) and every user of this machine can read it`,
      fix: `chmod 600 ${home.paths.config}`,
    });
    const doctorText = await runLarkmux(['doctor'], home.env);
    expect(doctorText.stdout).toContain(`fix: chmod 600 ${home.paths.config}`);
    expect(doctorText.stdout + doctorText.stderr).not.toContain('sk-not-a-real-key');

    const started = await runLarkmux(['start'], home.env);
    expect(started.code).toBe(0);
    expect(started.stderr).toContain(`warning: ${home.paths.config} (mode 644) holds secrets (console.env.OPENAI_API_KEY) and every user of this machine can read it; fix: chmod 600 ${home.paths.config}`);
    await runLarkmux(['stop'], home.env);

    chmodSync(home.paths.config, 0o600);
    expect(await modeLine(home)).toEqual({ level: 'OK', label: 'config mode', detail: `${home.paths.config} (mode 600): only you can read it` });
    const quiet = await runLarkmux(['start'], home.env);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain('warning:');

    home.writeConfig({ web: { port: 0 }, console: { cli: 'shell', env: { OPENAI_API_KEY: '${OPENAI_API_KEY}' } } });
    chmodSync(home.paths.config, 0o644);
    expect((await modeLine(home))?.level).toBe('OK');
  });
});
