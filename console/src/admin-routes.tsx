import { Route, Routes } from 'react-router';
import { ChannelsPage } from './channels/channels-page';
import { DashboardPage } from './dashboard/dashboard-page';
import { GroupsPage } from './groups/groups-page';
import { GuardrailsPage } from './guardrails/guardrails-page';
import { InviteCodesPage } from './invite-codes/invite-codes-page';
import { AdminKeysPage } from './keys/admin-keys-page';
import { AdminLogsPage } from './logs/admin-logs-page';
import { ModelsPage } from './models/models-page';
import { NotFoundPage } from './not-found-page';
import { AdminOrdersPage } from './orders/admin-orders-page';
import { PlaygroundPage } from './playground/playground-page';
import { PricingPage } from './pricing/pricing-page';
import { RedemptionCodesPage } from './redemption-codes/redemption-codes-page';
import { SettingsPage } from './settings/settings-page';
import { UsersPage } from './users/users-page';
import { VirtualModelsPage } from './virtual-models/virtual-models-page';

/** The pages of an admin session (the root admin or a user with role `admin`). */
export function AdminRoutes() {
  return (
    <Routes>
      <Route path="/" element={<DashboardPage />} />
      <Route path="/channels" element={<ChannelsPage />} />
      <Route path="/models" element={<ModelsPage />} />
      <Route path="/virtual-models" element={<VirtualModelsPage />} />
      <Route path="/guardrails" element={<GuardrailsPage />} />
      <Route path="/users" element={<UsersPage />} />
      <Route path="/keys" element={<AdminKeysPage />} />
      <Route path="/groups" element={<GroupsPage />} />
      <Route path="/redemption-codes" element={<RedemptionCodesPage />} />
      <Route path="/invite-codes" element={<InviteCodesPage />} />
      <Route path="/orders" element={<AdminOrdersPage />} />
      <Route path="/settings" element={<SettingsPage />} />
      <Route path="/logs" element={<AdminLogsPage />} />
      <Route path="/pricing" element={<PricingPage />} />
      <Route path="/playground" element={<PlaygroundPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
