// Payments: everyone reads them, admins change their state (CONTRACT §2 roles). The same domain
// operations and list filters as REST /payments.
import { failPayment } from '@/server/domain/payments/fail-payment';
import { listPayments } from '@/server/domain/payments/list-payments';
import { refundPayment } from '@/server/domain/payments/refund-payment';
import { PaymentListQuery } from '@/server/domain/payments/schemas';
import { succeedPayment } from '@/server/domain/payments/succeed-payment';
import {
  adminProcedure,
  createTRPCRouter,
  dashboardPage,
  IdInput,
  protectedProcedure,
} from '@/server/trpc/init';

export const paymentsRouter = createTRPCRouter({
  list: protectedProcedure
    .input(PaymentListQuery.partial().extend(dashboardPage(50)))
    .query(({ ctx, input }) => listPayments(ctx, input)),
  succeed: adminProcedure.input(IdInput).mutation(({ ctx, input }) => succeedPayment(ctx, input)),
  fail: adminProcedure.input(IdInput).mutation(({ ctx, input }) => failPayment(ctx, input)),
  refund: adminProcedure.input(IdInput).mutation(({ ctx, input }) => refundPayment(ctx, input)),
});
