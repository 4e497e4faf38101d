-- Spends every unused password reset link of the person (add-membership.ts), whichever tenant issued
-- it: their password guards every tenant they belong to, so a link stops guarding only one.
-- @cross-tenant a person's links of every tenant are spent when they join another
-- @param userId
update password_resets set used_at = now() where user_id = $1::text and used_at is null
