// Which open turns a transcript's turn end closes: the oldest, and the ones steered into it (absorbed prompts).
import { describe, expect, it } from 'vitest';
import { joinAbsorbed, takeEndedTurns, type OpenTurn } from '../../src/worker/runtime/monitor-turns.js';

const open = (...texts: string[]): OpenTurn[] => texts.map((text, i) => ({ turnId: `t${i}`, text, confirmed: true }));

describe('joinAbsorbed + takeEndedTurns', () => {
  const cases: { name: string; turns: string[]; absorbed: string[]; ends: { turn: string | undefined; joined: string[] }[] }[] = [
    { name: 'nothing steered: one turn per end', turns: ['a', 'b'], absorbed: [], ends: [{ turn: 't0', joined: [] }, { turn: 't1', joined: [] }] },
    { name: 'a steered message ends with the running turn', turns: ['run', 'steer 你好 $(x)'], absorbed: ['steer 你好 $(x)'], ends: [{ turn: 't0', joined: ['t1'] }, { turn: undefined, joined: [] }] },
    { name: 'the steered one is the newest with its text, not the running turn of the same text', turns: ['same', 'same'], absorbed: ['same'], ends: [{ turn: 't0', joined: ['t1'] }] },
    { name: 'a message queued behind the steered one keeps its own end', turns: ['run', 'steer', 'next'], absorbed: ['steer'], ends: [{ turn: 't0', joined: ['t1'] }, { turn: 't2', joined: [] }] },
    { name: 'text folded the way transcripts keep it', turns: ['run', 'two\r\nlines  here'], absorbed: ['two\nlines here'], ends: [{ turn: 't0', joined: ['t1'] }] },
    { name: 'an absorbed prompt nobody sent through larkmux joins nothing', turns: ['run', 'next'], absorbed: ['typed in the pane'], ends: [{ turn: 't0', joined: [] }, { turn: 't1', joined: [] }] },
    { name: 'the running turn typed in the pane: the steered one is the oldest open turn and takes the answer', turns: ['steer'], absorbed: ['steer'], ends: [{ turn: 't0', joined: [] }] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const turns = open(...c.turns);
      for (const a of c.absorbed) joinAbsorbed(turns, a);
      for (const want of c.ends) {
        const got = takeEndedTurns(turns);
        expect({ turn: got.turn?.turnId, joined: got.joined }).toEqual(want);
      }
    });
  }
});
