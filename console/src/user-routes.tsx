import { Route, Routes } from 'react-router';
import { MyKeysPage } from './keys/my-keys-page';
import { MyLogsPage } from './logs/my-logs-page';
import { MyDashboardPage } from './me/my-dashboard-page';
import { QuickStartPage } from './me/quick-start-page';
import { NotFoundPage } from './not-found-page';

/** The pages of a `user` session: its own account only (admin-api section 8). */
export function UserRoutes() {
  return (
    <Routes>
      <Route path="/" element={<MyDashboardPage />} />
      <Route path="/keys" element={<MyKeysPage />} />
      <Route path="/logs" element={<MyLogsPage />} />
      <Route path="/quick-start" element={<QuickStartPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
