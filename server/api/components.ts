// OpenAPI names and prose for the domain's schemas. The domain defines what it accepts and
// answers; this module adds, on the same schema objects, the component ids and descriptions the
// document shows, so a schema nested anywhere is still emitted as a $ref to its component.
import { zodToOpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { LoginInput, RefreshInput, Session } from '@/server/auth/schemas';
import {
  ApiKey,
  ApiKeyWithSecret,
  CreateApiKeyInput,
  RotateApiKeyInput,
  RotatedApiKey,
} from '@/server/domain/api-keys/schemas';
import { AuditLogEntry } from '@/server/domain/audit/schemas';
import {
  Booking,
  CancelBookingInput,
  CreateBookingInput,
  UpdateBookingInput,
} from '@/server/domain/bookings/schemas';
import { Channel, CreateChannelInput } from '@/server/domain/channels/schemas';
import {
  AssignInput,
  Conversation,
  CreateConversationInput,
  HandoffInput,
  Message,
  SendMessageInput,
} from '@/server/domain/conversations/schemas';
import {
  ChangeRoleInput,
  CreateInvitationInput,
  Invitation,
  InvitationWithLink,
  Member,
  MemberList,
  PasswordResetLink,
} from '@/server/domain/members/schemas';
import { CreatePaymentInput, Payment, SucceedPaymentInput } from '@/server/domain/payments/schemas';
import { EventEnvelope, EventTypeInfo, EventTypeList } from '@/server/events/schemas';
import {
  CreateWebhookInput,
  Delivery,
  DeliveryAttempt,
  DeliveryDetail,
  ReceiverCheck,
  ReceiverCheckResult,
  RecoverDeliveriesInput,
  RecoverResult,
  TestEventResult,
  UpdateWebhookInput,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookSecret,
} from '@/server/webhooks/schemas';

function component(schema: z.ZodType, id: string, description?: string): void {
  zodToOpenAPIRegistry.add(schema, { _internal: { refId: id }, ...(description ? { description } : {}) });
}

component(LoginInput, 'LoginRequest');
component(RefreshInput, 'RefreshRequest');
component(Session, 'Session');
component(ApiKey, 'ApiKey');
component(ApiKeyWithSecret, 'ApiKeyWithSecret');
component(RotatedApiKey, 'RotatedApiKey');
component(CreateApiKeyInput, 'CreateApiKeyRequest');
component(RotateApiKeyInput, 'RotateApiKeyRequest');
component(Booking, 'Booking');
component(CreateBookingInput, 'CreateBookingRequest');
component(
  UpdateBookingInput,
  'UpdateBookingRequest',
  'Only the fields sent change; null clears an optional field. Changing start_at or end_at emits ' +
    'booking.rescheduled with the old times in data.previous. end_at must stay after start_at (checked ' +
    'against the stored value of the field not sent).',
);
component(CancelBookingInput, 'CancelBookingRequest', 'The body is optional');
component(
  Channel,
  'Channel',
  'A registered sender. The access token is stored encrypted and never returned.',
);
component(CreateChannelInput, 'CreateChannelRequest');
component(Conversation, 'Conversation');
component(Message, 'Message');
component(CreateConversationInput, 'CreateConversationRequest');
component(SendMessageInput, 'SendMessageRequest');
component(HandoffInput, 'HandoffRequest');
component(AssignInput, 'AssignRequest');
component(Payment, 'Payment');
component(CreatePaymentInput, 'CreatePaymentRequest');
component(SucceedPaymentInput, 'SucceedPaymentRequest', 'The body is optional');
component(CreateWebhookInput, 'CreateWebhookEndpoint');
component(UpdateWebhookInput, 'UpdateWebhookEndpoint');
component(WebhookEndpoint, 'WebhookEndpoint');
component(WebhookEndpointWithSecret, 'WebhookEndpointWithSecret');
component(
  WebhookSecret,
  'WebhookSecret',
  'The new secret; the old one keeps signing too until previous_secret_expires_at',
);
component(DeliveryAttempt, 'DeliveryAttempt');
component(ReceiverCheck, 'ReceiverCheck', 'The result of POST /webhooks/{id}/verify-receiver');
component(ReceiverCheckResult, 'ReceiverCheckResult');
component(RecoverDeliveriesInput, 'RecoverDeliveries', 'The body of POST /webhooks/{id}/recover');
component(RecoverResult, 'RecoverResult');
component(Delivery, 'Delivery');
component(DeliveryDetail, 'DeliveryDetail');
component(
  TestEventResult,
  'WebhookTestResult',
  'The webhook.test event and its delivery (sent asynchronously)',
);
component(
  EventEnvelope,
  'Event',
  'The event envelope: exactly the JSON body every webhook delivery of this event carries',
);
component(EventTypeInfo, 'EventType');
component(EventTypeList, 'EventTypeList');
component(Member, 'Member');
component(MemberList, 'MemberList', 'Every member of the tenant, in the order they joined');
component(ChangeRoleInput, 'ChangeMemberRoleRequest');
component(CreateInvitationInput, 'CreateInvitationRequest');
component(Invitation, 'Invitation', 'A pending invitation (its link is shown only when it is created)');
component(InvitationWithLink, 'InvitationWithLink');
component(PasswordResetLink, 'PasswordResetLink');
component(
  AuditLogEntry,
  'AuditLogEntry',
  'Who (a person or an API key, from which client address) did what (action) to what (target), and when',
);
