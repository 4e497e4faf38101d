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
  PermissionName,
  RotateApiKeyInput,
  RotatedApiKey,
} from '@/server/domain/api-keys/schemas';
import {
  AssistantSessionWithToken,
  CreateAssistantSessionInput,
  CustomerBooking,
} from '@/server/domain/assistant-sessions/schemas';
import { AuditLogEntry } from '@/server/domain/audit/schemas';
import { FreeSlot, SlotList } from '@/server/domain/availability/schemas';
import {
  Booking,
  CancelBookingInput,
  CreateBookingInput,
  RescheduleBookingInput,
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
import {
  ConnectStripeInput,
  PaymentProviderConnection,
  PaymentProviderList,
  StripeWebhookAck,
} from '@/server/domain/payment-providers/schemas';
import {
  CreatePaymentInput,
  Payment,
  RefundPaymentInput,
  SucceedPaymentInput,
} from '@/server/domain/payments/schemas';
import {
  CalendarFeed,
  CreateResourceInput,
  CreateTimeOffInput,
  Resource,
  TimeOff,
  TimeRange,
  UpdateResourceInput,
  WeeklyHours,
} from '@/server/domain/resources/schemas';
import {
  CreateServiceInput,
  Money,
  Reminder,
  Service,
  UpdateServiceInput,
} from '@/server/domain/services/schemas';
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
component(
  PermissionName,
  'Permission',
  'A permission of the permission table: each operation names the one it needs as x-permission',
);
component(CreateAssistantSessionInput, 'CreateAssistantSessionRequest');
component(
  AssistantSessionWithToken,
  'AssistantSessionWithToken',
  'A new assistant session: its token is shown only here',
);
component(
  CustomerBooking,
  'CustomerBooking',
  'A booking as the tools of an assistant session answer it (the MCP endpoint): nothing of the customer',
);
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
component(RescheduleBookingInput, 'RescheduleBookingRequest');
component(FreeSlot, 'Slot', 'A free start of a service and the resources free then');
component(SlotList, 'SlotList');
component(
  Resource,
  'Resource',
  'A person, room or piece of equipment that services are booked on, with its weekly hours in its own IANA zone',
);
component(CreateResourceInput, 'CreateResourceRequest');
component(
  UpdateResourceInput,
  'UpdateResourceRequest',
  'Only the fields sent change; weekly_hours is replaced whole',
);
component(WeeklyHours, 'WeeklyHours');
component(TimeRange, 'TimeRange', 'A working interval of one day, local times; end may be 24:00');
component(TimeOff, 'TimeOff', 'A time the resource is away: it offers no slots and takes no bookings then');
component(CreateTimeOffInput, 'CreateTimeOffRequest');
component(CalendarFeed, 'CalendarFeed');
component(
  Service,
  'Service',
  'What can be booked: duration, resources, buffers, notice, window, slot grid, price, payment and reminders',
);
component(CreateServiceInput, 'CreateServiceRequest');
component(UpdateServiceInput, 'UpdateServiceRequest');
component(Money, 'Money', 'An amount in integer minor units and its ISO 4217 currency');
component(
  Reminder,
  'BookingReminder',
  'A WhatsApp template sent before_minutes before a confirmed booking starts',
);
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
component(RefundPaymentInput, 'RefundPaymentRequest', 'The body is optional (no amount: all that remains)');
component(ConnectStripeInput, 'ConnectStripeRequest', "The Stripe account's keys; neither is ever returned");
component(
  PaymentProviderConnection,
  'PaymentProviderConnection',
  "A connected Stripe account: never its secrets, only their last 4 characters, and the tenant's webhook URL",
);
component(PaymentProviderList, 'PaymentProviderList');
component(StripeWebhookAck, 'StripeWebhookAck', 'What became of a Stripe event');
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
