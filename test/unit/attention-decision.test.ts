// Who is singled out, and how, when a session needs a person (issue 16): the pure plan and the card it shapes.
import { describe, expect, it } from 'vitest';
import { attentionPlan, type AttentionConfig, type AttentionEvent } from '../../src/daemon/ground/attention.js';
import { renderCard } from '../../src/daemon/im/lark/cards.js';
import { BotConfigSchema } from '../../src/shared/config.js';
import type { SelectionCard } from '../../src/shared/card-model.js';
import { buttonLabels } from '../support/fake-feishu/index.js';
import { validateCard } from '../support/fake-feishu/validate.js';

const DEFAULTS = BotConfigSchema.shape.attention.parse(undefined);
const cfg = (over: Partial<AttentionConfig> = {}): AttentionConfig => ({ ...DEFAULTS, ...over });

describe('attentionPlan', () => {
  const rows: Array<{ name: string; ev: AttentionEvent; cfg: AttentionConfig; requester?: boolean; want: ReturnType<typeof attentionPlan> }> = [
    { name: 'a permission prompt mentions and pins with the defaults, no buzz', ev: { kind: 'waiting', reason: 'permission' }, cfg: cfg(), want: { mention: true, pin: true, buzzAfterMs: null } },
    { name: 'a menu likewise', ev: { kind: 'waiting', reason: 'selection' }, cfg: cfg(), want: { mention: true, pin: true, buzzAfterMs: null } },
    { name: 'a failed delivery likewise', ev: { kind: 'waiting', reason: 'input_failed' }, cfg: cfg(), want: { mention: true, pin: true, buzzAfterMs: null } },
    { name: 'a crash likewise', ev: { kind: 'waiting', reason: 'crash' }, cfg: cfg(), want: { mention: true, pin: true, buzzAfterMs: null } },
    { name: 'buzzAfterMinutes arms the buzz (fractions of a minute too)', ev: { kind: 'waiting', reason: 'question' }, cfg: cfg({ buzzAfterMinutes: 0.05 }), want: { mention: true, pin: true, buzzAfterMs: 3000 } },
    { name: 'mention and pin can be turned off', ev: { kind: 'waiting', reason: 'permission' }, cfg: cfg({ mention: false, pin: false, buzzAfterMinutes: 2 }), want: { mention: false, pin: false, buzzAfterMs: 120_000 } },
    { name: 'no requester (a prompt after a restart): nobody is singled out', ev: { kind: 'waiting', reason: 'permission' }, cfg: cfg({ buzzAfterMinutes: 1 }), requester: false, want: { mention: false, pin: false, buzzAfterMs: null } },
    { name: 'a short turn ends quietly', ev: { kind: 'turn_end', turnMs: 5_000 }, cfg: cfg(), want: { mention: false, pin: false, buzzAfterMs: null } },
    { name: 'a turn of exactly notifyAfterSeconds stays quiet', ev: { kind: 'turn_end', turnMs: DEFAULTS.notifyAfterSeconds * 1000 }, cfg: cfg(), want: { mention: false, pin: false, buzzAfterMs: null } },
    { name: 'a longer turn mentions its requester, never pins or buzzes', ev: { kind: 'turn_end', turnMs: DEFAULTS.notifyAfterSeconds * 1000 + 1 }, cfg: cfg({ buzzAfterMinutes: 1 }), want: { mention: true, pin: false, buzzAfterMs: null } },
    { name: 'notifyAfterSeconds 0: every turn end mentions', ev: { kind: 'turn_end', turnMs: 1 }, cfg: cfg({ notifyAfterSeconds: 0 }), want: { mention: true, pin: false, buzzAfterMs: null } },
    { name: 'mention off: a long turn stays quiet', ev: { kind: 'turn_end', turnMs: 3_600_000 }, cfg: cfg({ mention: false }), want: { mention: false, pin: false, buzzAfterMs: null } },
  ];
  for (const r of rows) it(r.name, () => expect(attentionPlan(r.ev, r.cfg, r.requester ?? true)).toEqual(r.want));

  it('documented defaults: mention and pin on, buzz off, notify after two minutes', () => {
    expect(DEFAULTS).toEqual({ mention: true, pin: true, buzzAfterMinutes: 0, notifyAfterSeconds: 120 });
  });
});

describe('a waiting selection card', () => {
  const sel = (over: Partial<SelectionCard> = {}): SelectionCard => ({
    kind: 'selection', sessionId: 's1', promptId: 'p1', title: 'Do you want to proceed?', options: [{ label: '1. Yes' }, { label: '2. No' }], defaultIndex: 0, ...over,
  });
  // Mentions live in markdown (plain_text titles and the summary are never parsed for tags).
  const markdowns = (c: Record<string, unknown>): string[] => {
    const out: string[] = [];
    const walk = (n: unknown): void => {
      if (!n || typeof n !== 'object') return;
      if (Array.isArray(n)) return n.forEach(walk);
      const o = n as Record<string, unknown>;
      if (o.tag === 'markdown') out.push(...(String(o.content).match(/<at [^>]*>/g) ?? []));
      Object.values(o).forEach(walk);
    };
    walk(c);
    return out;
  };

  it('mentions the requester only and shows the question as its chat-list summary', () => {
    const c = renderCard(sel({ attention: { mention: 'ou_requester1', summary: 'Do you want to proceed?' } }), 'en');
    expect(markdowns(c)).toEqual(['<at id=ou_requester1>']);
    expect((c.config as { summary: { content: string } }).summary.content).toBe('Do you want to proceed?');
    expect(validateCard(c, () => true)).toBeNull();
  });

  it('never puts anything but an open id into the mention (no "all", no markup from a screen)', () => {
    for (const bad of ['all', 'ou_x></at><at id=all', 'on_union', '']) {
      expect(markdowns(renderCard(sel({ attention: { mention: bad } }), 'en'))).toEqual([]);
    }
  });

  it('a title from the screen cannot mention anyone either', () => {
    const c = renderCard(sel({ title: '<at id=all></at> proceed?', attention: { mention: 'ou_requester1', summary: '<at id=all></at> proceed?' } }), 'en');
    expect(markdowns(c)).toEqual(['<at id=ou_requester1>']);
  });

  it('an answered card drops the mention, the summary of the question and the text box', () => {
    const c = renderCard(sel({ textOption: 1, attention: { mention: 'ou_requester1', summary: 'Q' }, answered: { by: 'ou_requester1', optionIndex: 1, text: 'use $(rm -rf /) literally' } }), 'en');
    expect(markdowns(c)).toEqual([]);
    expect(JSON.stringify(c)).not.toContain('"form"');
    expect(JSON.stringify(c)).toContain('use $(rm -rf /) literally');
  });

  it('a prompt that takes a typed answer offers a form with a text box and a submit button bound to that option', () => {
    const c = renderCard(sel({ options: [{ label: '1. Red' }, { label: '2. Blue' }, { label: '3. Type something.' }], textOption: 2 }), 'zh-CN');
    expect(validateCard(c, () => true)).toBeNull();
    const form = JSON.stringify(c);
    expect(form).toContain('"tag":"form"');
    expect(form).toContain('"form_action_type":"submit"');
    expect(form).toContain('"optionIndex":2');
    expect(buttonLabels(c)).toContain('发送');
  });

  it('prompts without a typed option have no form', () => {
    expect(JSON.stringify(renderCard(sel(), 'en'))).not.toContain('"form"');
  });
});
