import { Route, Routes } from 'react-router';
import { MyKeysPage } from './keys/my-keys-page';
import { MyLogsPage } from './logs/my-logs-page';
import { MyDashboardPage } from './me/my-dashboard-page';
import { QuickStartPage } from './me/quick-start-page';
import { NotFoundPage } from './not-found-page';
import { PlaygroundPage } from './playground/playground-page';
import { PricingPage } from './pricing/pricing-page';
import { RedeemPage } from './redeem/redeem-page';
import { TopUpPage } from './topup/top-up-page';

/** The pages of a `user` session: its own account only (admin-api sections 8 and 15). */
export function UserRoutes() {
  return (
    <Routes>
      <Route path="/" element={<MyDashboardPage />} />
      <Route path="/keys" element={<MyKeysPage />} />
      <Route path="/logs" element={<MyLogsPage />} />
      <Route path="/playground" element={<PlaygroundPage />} />
      <Route path="/pricing" element={<PricingPage />} />
      <Route path="/redeem" element={<RedeemPage />} />
      <Route path="/topup" element={<TopUpPage />} />
      <Route path="/quick-start" element={<QuickStartPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
