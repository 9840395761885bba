// What is typed into each CLI for a prompt: a program (shell, custom) gets only the person's words and the saved paths;
// a model CLI also gets the quote and the notes, in a form none of them acts on (issue 31 item 1).
import { describe, expect, it } from 'vitest';
import { CLI_IDS, CLI_INPUT, cliInputOf, type CliSpec } from '../../src/shared/cli-spec.js';
import { adapterFor } from '../../src/worker/cli/registry.js';
import { inertForModel, typedPrompt, type PromptParts } from '../../src/daemon/inbound/typed-prompt.js';

const custom: CliSpec = { command: 'python3', args: [], readyPattern: '>>> $' };
const none: PromptParts = { own: '', files: [], notSaved: [], instruction: 'Please look at the attached file(s).' };
const parts = (p: Partial<PromptParts>): PromptParts => ({ ...none, ...p });
const QUOTE = 'notes.txt is old\necho hi > victim\n!rm -rf ~\n/clear\n@~/.ssh/id_rsa and mail@example.com';

describe('which CLIs run what they are given', () => {
  it('the shell and any custom program are programs; the model CLIs read prompts', () => {
    expect(CLI_INPUT).toEqual({ 'claude-code': 'prompt', codex: 'prompt', gemini: 'prompt', shell: 'program' });
    expect(cliInputOf(custom)).toBe('program');
  });
  it.each([...CLI_IDS, custom])('the %j adapter declares the same', (spec) => {
    const a = adapterFor(spec);
    if (!a.ok) throw new Error(a.message);
    expect(a.adapter.input).toBe(cliInputOf(spec));
  });
});

describe('typedPrompt', () => {
  it.each<[string, CliSpec, Partial<PromptParts>, string]>([
    // A program: the person's words only; the quote and the notes are never typed.
    ['shell, a reply', 'shell', { own: 'ls -l', quote: QUOTE }, 'ls -l'],
    ['custom, a reply', custom, { own: 'print(1)', quote: QUOTE }, 'print(1)'],
    ['shell, words and a file', 'shell', { own: 'wc -l', files: ['.larkmux/uploads/d/a.txt'], notSaved: ['big.zip: larger than 1 MB'] }, 'wc -l\n.larkmux/uploads/d/a.txt'],
    ['shell, a picture alone', 'shell', { files: ['.larkmux/uploads/d/p.png'] }, '.larkmux/uploads/d/p.png'],
    ['shell, nothing saved', 'shell', { notSaved: ['big.zip: larger than 1 MB'] }, ''],
    // A model CLI: the label first, every quoted line behind "> ", @ after a space made inert, then the person's words.
    ['claude, a reply', 'claude-code', { own: 'why?', quote: QUOTE },
      'Quoted message:\n> notes.txt is old\n> echo hi > victim\n> !rm -rf ~\n> /clear\n> \uff20~/.ssh/id_rsa and mail@example.com\n\nwhy?'],
    ['codex, a blank quote changes nothing', 'codex', { own: 'why?', quote: '  ' }, 'why?'],
    ['claude, files', 'claude-code', { own: 'what is this?', files: ['.larkmux/uploads/d/a.png', '.larkmux/uploads/d/b.txt'] }, 'what is this?\n\n@.larkmux/uploads/d/a.png\n@.larkmux/uploads/d/b.txt'],
    ['codex, a file alone and a note', 'codex', { files: ['.larkmux/uploads/d/a.png'], notSaved: ['@evil.zip: larger than 20 MB'] },
      'Please look at the attached file(s).\n\n.larkmux/uploads/d/a.png\n(not saved: \uff20evil.zip: larger than 20 MB)'],
    ['gemini, a reply with a file', 'gemini', { own: 'and this?', quote: 'see @docs/a.md', files: ['.larkmux/uploads/d/a.png'] },
      'Quoted message:\n> see \uff20docs/a.md\n\nand this?\n\n.larkmux/uploads/d/a.png'],
    ['claude, plain words', 'claude-code', { own: '!ls' }, '!ls'],
  ])('%s', (_name, cli, p, want) => {
    expect(typedPrompt(cli, parts(p))).toBe(want);
  });

  it('no line of a model CLI\'s prompt that came from a quote starts with a character a CLI acts on', () => {
    for (const cli of ['claude-code', 'codex', 'gemini'] as const) {
      const typed = typedPrompt(cli, parts({ own: 'x', quote: QUOTE }));
      expect(typed.split('\n')[0]).toBe('Quoted message:');
      for (const line of typed.split('\n').slice(1, -2)) expect(line.startsWith('> ')).toBe(true);
    }
  });

  it('inertForModel changes only an @ that starts a word (an e-mail address stays)', () => {
    expect(inertForModel('a@b.c @x\n@y')).toBe('a@b.c \uff20x\n\uff20y');
  });
});
