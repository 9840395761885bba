// Table-driven structure tests for CardModel → Feishu card JSON 2.0 (no snapshots).
import { describe, expect, it } from 'vitest';
import { CARD_LIMITS, byteLength, renderCard } from '../../src/daemon/im/lark/cards.js';
import { codeBlock } from '../../src/daemon/im/lark/lark-escape.js';
import { STATUS_LOOK, type CardModel, type StreamingCard } from '../../src/shared/card-model.js';
import { CARD_KEY_ROW } from '../../src/shared/keys.js';
import { t } from '../../src/shared/i18n.js';
import { buttonLabels, findButtonValue } from '../support/fake-feishu/index.js';
import { validateCard } from '../support/fake-feishu/validate.js';

type El = { tag: string; content?: string; img_key?: string; columns?: Array<{ elements: El[] }> };
const elements = (c: Record<string, unknown>) => (c.body as { elements: El[] }).elements;
const header = (c: Record<string, unknown>) => c.header as { template: string; title: { content: string }; subtitle?: { content: string } };

function stream(over: Partial<StreamingCard> = {}): StreamingCard {
  return { kind: 'stream', sessionId: 's1', title: 'T', status: 'working', display: 'text', screenText: 'hello', keys: [...CARD_KEY_ROW], buttons: [], frozen: false, ...over };
}

describe('renderCard: streaming', () => {
  const statuses = Object.keys(STATUS_LOOK) as Array<keyof typeof STATUS_LOOK>;
  for (const status of statuses) {
    it(`header colour and label for ${status}`, () => {
      const c = renderCard(stream({ status }), 'en');
      expect(header(c).template).toBe(STATUS_LOOK[status].colour);
      expect(header(c).subtitle?.content).toBe(t('en', STATUS_LOOK[status].label));
      expect(c.schema).toBe('2.0');
      expect((c.config as { update_multi: boolean }).update_multi).toBe(true);
    });
  }

  const displayCases: Array<{ name: string; card: StreamingCard; img?: string; text?: string }> = [
    { name: 'screenshot with image', card: stream({ display: 'screenshot', image: { ref: 'img_1' } }), img: 'img_1' },
    { name: 'screenshot without image falls back to text', card: stream({ display: 'screenshot' }), text: 'hello' },
    { name: 'text', card: stream({ display: 'text', image: { ref: 'img_1' } }), text: 'hello' },
    { name: 'hidden shows neither', card: stream({ display: 'hidden', image: { ref: 'img_1' } }) },
  ];
  for (const d of displayCases) {
    it(`display: ${d.name}`, () => {
      const els = elements(renderCard(d.card, 'en'));
      expect(els.find((e) => e.tag === 'img')?.img_key).toBe(d.img);
      const code = els.find((e) => e.tag === 'markdown' && e.content?.startsWith('```'));
      expect(code?.content).toBe(d.text === undefined ? undefined : codeBlock(d.text));
    });
  }

  it('key row buttons carry key callbacks, in two rows of five, then extra buttons', () => {
    const c = renderCard(stream({ buttons: [{ label: 'Web', style: 'primary', url: 'https://x/s/1' }, { label: 'Close', style: 'danger', value: { action: 'close', sessionId: 's1' } }] }), 'en');
    expect(buttonLabels(c)).toEqual(['Esc', 'Ctrl+C', 'Tab', 'Enter', '↑', '↓', '←', '→', 'PgUp', 'PgDn', 'Web', 'Close']);
    expect(findButtonValue(c, 'Ctrl+C')).toEqual({ action: 'key', sessionId: 's1', key: 'ctrl_c' });
    expect(findButtonValue(c, 'Close')).toEqual({ action: 'close', sessionId: 's1' });
    const rows = elements(c).filter((e) => e.tag === 'column_set');
    expect(rows.map((r) => r.columns!.length)).toEqual([5, 5, 2]);
    expect(JSON.stringify(c)).toContain('"default_url":"https://x/s/1"');
    expect(validateCard(c, () => true)).toBeNull();
  });

  it('frozen cards have no buttons', () => {
    expect(buttonLabels(renderCard(stream({ frozen: true, buttons: [{ label: 'X', style: 'default', value: { action: 'screen', sessionId: 's1' } }] }), 'en'))).toEqual([]);
  });

  it('notice comes first', () => {
    expect(elements(renderCard(stream({ notice: 'Resumed' }), 'en'))[0]).toEqual({ tag: 'markdown', content: 'Resumed' });
  });

  it('screen text cannot close the code fence early', () => {
    const md = elements(renderCard(stream({ screenText: 'a ``` b' }), 'en')).find((e) => e.content?.startsWith('```'))!.content!;
    expect(md.match(/```/g)).toHaveLength(2);
  });

  const sizes = [10_000, 40_000, 200_000];
  for (const n of sizes) {
    it(`a ${n}-character screen stays under ${CARD_LIMITS.maxBytes} bytes and keeps the bottom`, () => {
      const lines = Array.from({ length: n / 20 }, (_, i) => `line ${String(i).padStart(6, '0')} 中文`).join('\n');
      const c = renderCard(stream({ screenText: lines }), 'en');
      expect(byteLength(c)).toBeLessThanOrEqual(CARD_LIMITS.maxBytes);
      const md = JSON.stringify(c);
      expect(md).toContain(`line ${String(n / 20 - 1).padStart(6, '0')}`);
      expect(validateCard(c, () => true)).toBeNull();
    });
  }
});

describe('renderCard: selection and picker', () => {
  const sel: CardModel = { kind: 'selection', sessionId: 's1', promptId: 'p', title: 'Allow edit?', options: [{ label: 'Yes' }, { label: 'Always' }, { label: 'No' }], defaultIndex: 0 };
  const cases: Array<{ name: string; model: CardModel; labels: string[]; template: string; text?: string }> = [
    { name: 'open selection', model: sel, labels: ['Yes', 'Always', 'No'], template: 'red', text: '1. Yes (default)' },
    { name: 'answered selection', model: { ...sel, answered: { by: 'Ann', optionIndex: 2 } }, labels: [], template: 'green', text: '**Answered by** Ann: No' },
    { name: 'picker', model: { kind: 'picker', anchorKey: 'a', title: 'Pick', projects: [{ label: 'a', path: '/p/a' }, { label: 'b', path: '/p/b' }] }, labels: ['a', 'b'], template: 'blue' },
    { name: 'picker chosen', model: { kind: 'picker', anchorKey: 'a', title: 'Pick', projects: [{ label: 'a', path: '/p/a' }], chosen: '/p/a' }, labels: [], template: 'green', text: '/p/a' },
    { name: 'empty picker', model: { kind: 'picker', anchorKey: 'a', title: 'Pick', projects: [] }, labels: [], template: 'blue', text: 'No projects' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const card = renderCard(c.model, 'en');
      expect(buttonLabels(card)).toEqual(c.labels);
      expect(header(card).template).toBe(c.template);
      if (c.text) expect(JSON.stringify(card)).toContain(JSON.stringify(c.text).slice(1, -1));
      expect(validateCard(card, () => true)).toBeNull();
    });
  }

  it('option buttons carry select values and the default is primary', () => {
    const card = renderCard(sel, 'en');
    expect(findButtonValue(card, 'Always')).toEqual({ action: 'select', sessionId: 's1', promptId: 'p', optionIndex: 1 });
    expect(JSON.stringify(card)).toMatch(/"content":"Yes"\},"type":"primary"/);
  });

  it('picker buttons carry project values', () => {
    const card = renderCard({ kind: 'picker', anchorKey: 'k', title: 'Pick', projects: [{ label: 'repo', path: '/code/repo' }] }, 'en');
    expect(findButtonValue(card, 'repo')).toEqual({ action: 'project', anchorKey: 'k', path: '/code/repo' });
  });
});

describe('renderCard in Simplified Chinese (the default for Feishu bots)', () => {
  it.each([
    ['starting', '启动中'], ['working', '处理中'], ['waiting', '等待你的选择'], ['idle', '已空闲'], ['limited', '触发限流'], ['exited', '已退出'],
  ] as const)('status %s reads %s', (status, label) => {
    expect(header(renderCard(stream({ status, subtitle: 'fix the tests' }), 'zh-CN')).subtitle?.content).toBe(`${label} · fix the tests`);
  });

  it('key words are translated, key caps and arrows stay', () => {
    expect(buttonLabels(renderCard(stream(), 'zh-CN'))).toEqual(['Esc', 'Ctrl+C', 'Tab', '回车', '↑', '↓', '←', '→', '上翻页', '下翻页']);
  });

  it('a selection shows its default and who answered in Chinese', () => {
    const sel: CardModel = { kind: 'selection', sessionId: 's1', promptId: 'p', title: '允许编辑？', options: [{ label: 'Yes' }, { label: 'No' }], defaultIndex: 0 };
    const open = renderCard(sel, 'zh-CN');
    expect(header(open).subtitle?.content).toBe('等待你的选择');
    expect(elements(open)[0]!.content).toBe('1. Yes（默认）\n2. No');
    const answered = renderCard({ ...sel, answered: { by: '小王', optionIndex: 1 } }, 'zh-CN');
    expect(header(answered).subtitle?.content).toBe('已回答');
    expect(elements(answered)[1]!.content).toBe('**小王** 已选择：No');
  });
});
