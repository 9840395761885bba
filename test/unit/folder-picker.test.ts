// A new topic's folder picker, as the bot's config and its hosts make it: each place once, in order — a bot whose
// default host has roots used to get its own folder and that host's root as two identical buttons.
import { describe, expect, it } from 'vitest';
import { folderPickerChoices } from '../../src/daemon/sessions/session-placement.js';
import type { HostConfig } from '../../src/shared/host-config.js';

const host = (name: string, workingDirs?: string[]): HostConfig => ({ name, ssh: `ops@${name}`, ...(workingDirs ? { workingDirs } : {}) }) as HostConfig;
const gpu1 = host('gpu1', ['/srv/app', '/srv/data']);

describe('folderPickerChoices', () => {
  it.each<[string, { workingDir: string; projects: string[]; host?: string }, HostConfig[], string[]]>([
    ['local bot, no hosts: its projects', { workingDir: '/w', projects: ['/w/a', '/w/b'] }, [], ['/w/a', '/w/b']],
    ['local bot, a host with roots: its folder, then the roots', { workingDir: '/w', projects: [] }, [gpu1], ['/w', 'gpu1:/srv/app', 'gpu1:/srv/data']],
    ['bot on gpu1 with a relative folder: its folder is the first root, offered once', { workingDir: '~', projects: [], host: 'gpu1' }, [gpu1], ['gpu1:/srv/app', 'gpu1:/srv/data']],
    ['bot on gpu1 in one of its roots: offered once', { workingDir: '/srv/data/', projects: [], host: 'gpu1' }, [gpu1], ['gpu1:/srv/data', 'gpu1:/srv/app']],
    ['bot on a host with one root: one choice, taken without asking', { workingDir: '~', projects: [], host: 'one' }, [host('one', ['/srv'])], ['one:/srv']],
    ['a root written twice (trailing slash) is one choice', { workingDir: '/w', projects: [], host: 'local' }, [host('g', ['/srv', '/srv/'])], ['/w', 'g:/srv']],
    ['a project listed twice is one choice', { workingDir: '/w', projects: ['/w/a', '/w/a'] }, [gpu1], ['/w/a', 'gpu1:/srv/app', 'gpu1:/srv/data']],
    ['bot on gpu1 outside its roots: its folder, then the roots', { workingDir: '/opt/x', projects: [], host: 'gpu1' }, [gpu1], ['gpu1:/opt/x', 'gpu1:/srv/app', 'gpu1:/srv/data']],
  ])('%s', (_what, bot, hosts, want) => expect(folderPickerChoices(bot, hosts)).toEqual(want));
});
