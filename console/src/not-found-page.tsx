import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from './components/page-header';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('app.notFound')} />
      <Text>
        <Anchor component={Link} to="/">
          {t('app.backHome')}
        </Anchor>
      </Text>
    </>
  );
}
