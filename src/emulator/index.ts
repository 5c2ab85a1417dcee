/**
 * The embedded Brand Data Service emulator, exported as `brandscape-kit/emulator`.
 *
 * @example
 * import { createEmulator } from 'brandscape-kit/emulator';
 * const emulator = await createEmulator({ port: 0 });
 * console.log(emulator.url, emulator.token);
 */
export { createEmulator } from './create-emulator.js';
export type { AudienceExportOutcome, Emulator, EmulatorOptions, PublishOutcome } from './create-emulator.js';
export type { AudienceExportAccess, AudienceExportRequest } from './audience-export.js';
export { AUDIENCE_EXPORT_EVENT, AUDIENCE_EXPORT_FORMATS } from '../schemas/audience-export.js';
export type { AudienceExportFormat } from '../schemas/audience-export.js';
export { createDataset } from './dataset/dataset.js';
export type { Dataset, DatasetOptions, PublishRequest, PublishResult } from './dataset/types.js';
export { DEFAULT_TOKEN, fromTokenArg } from './http/auth.js';
export type { TokenOptions } from './http/auth.js';
export type { FaultKind, FaultRule } from './http/faults.js';
export type { RecordedRequest } from './http/handler.js';
export { signWebhookBody } from './webhooks.js';
export type { Delivery, DeliveryAttempt, SubscriptionState, WebhookSubscription } from './webhooks.js';
