import { useTranslation } from 'react-i18next';
import { PageHeader } from '../components/page-header';
import { PricingView } from './pricing-view';

/** The price list inside the console, for the signed-in caller's group. */
export function PricingPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('nav.pricing')} description={t('pricing.description')} />
      <PricingView />
    </>
  );
}
