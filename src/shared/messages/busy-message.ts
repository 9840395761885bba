// Texts of a message that arrives while the CLI works (issue 30 item 4), kept apart and spread into the catalogues.
export const busyMessageEn = {
  'busy.waiting': 'The CLI is still working: your message waits and goes as soon as this turn ends.',
  'busy.button.steer': 'Steer now',
  'busy.button.interrupt': 'Interrupt and send',
  'busy.done.waited': 'Sent after the turn ended (waited).',
  'busy.done.steered': 'Steered: this message was typed into the working CLI, which takes it at its next step.',
  'busy.done.interrupted': 'Interrupted: the running turn was stopped and this message goes next.',
  'busy.steerWaits': 'Not steered: the CLI is not working now, or is already taking a steered message. This message keeps its place.',
  'busy.interruptWaits': 'Not interrupted: the CLI is not working now. This message keeps its place and goes next.',
  'tap.hurry': 'On its way to the CLI …',
  'busy.alreadySent': 'This message already went to the CLI; nothing was sent again.',
  'busy.gone': 'This message is no longer waiting in this session; nothing was sent.',
  'busy.notOffered': 'This CLI cannot take a message while it works; the message keeps waiting.',
} as const satisfies Record<string, string>;

export const busyMessageZhCN: Record<keyof typeof busyMessageEn, string> = {
  'busy.waiting': 'CLI 仍在工作：你的消息在排队，本轮结束后立即发送。',
  'busy.button.steer': '立即插话',
  'busy.button.interrupt': '打断并发送',
  'busy.done.waited': '本轮结束后已发送（等待）。',
  'busy.done.steered': '已插话：这条消息已输入正在工作的 CLI，它会在下一步读到。',
  'busy.done.interrupted': '已打断：当前这一轮已停止，接下来发送这条消息。',
  'busy.steerWaits': '没有插话：CLI 现在没在工作，或正在接收另一条插话。这条消息保持排队位置。',
  'busy.interruptWaits': '没有打断：CLI 现在没在工作。这条消息保持排队位置，接下来发送。',
  'tap.hurry': '正在交给 CLI …',
  'busy.alreadySent': '这条消息已经发给 CLI，没有重复发送。',
  'busy.gone': '这条消息已不在本会话的队列里，没有发送。',
  'busy.notOffered': '这个 CLI 工作时不能接收消息，消息继续排队。',
};
