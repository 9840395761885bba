// Public surface of the Feishu/Lark IM adapter.
export { LarkAdapter, ADAPTER_TIMING, type LarkAdapterOptions, type LarkBotConfig } from './adapter.js';
export { renderCard, CARD_LIMITS } from './cards.js';
export { parseMessageEvent, parseCardActionEvent } from './events.js';
export { DELIVERY_LIMITS, type DeliveryLimits } from './delivery.js';
export { LarkApi, resolveDomain } from './client.js';
