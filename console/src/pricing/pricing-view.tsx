import { Alert, Anchor, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../api/api-error';
import { queryKeys } from '../api/query-keys';
import { QueryState } from '../components/query-state';
import { filterPricing } from './filter-pricing';
import { fetchPricing } from './pricing-api';
import { PricingTable } from './pricing-table';

/**
 * The price list with a search; where the gateway keeps prices for signed-in people only
 * (`pricing_public` off), an invitation to sign in instead of an error.
 */
export function PricingView() {
  const { t } = useTranslation();
  const pricing = useQuery({ queryKey: queryKeys.pricing, queryFn: fetchPricing });
  const [search, setSearch] = useState('');
  if (pricing.error instanceof ApiError && pricing.error.status === 401) {
    return (
      <Alert color="blue" role="status">
        <Text size="sm">
          {t('pricing.signInToSee')}{' '}
          <Anchor component={Link} to="/" size="sm">
            {t('signIn.submit')}
          </Anchor>
        </Text>
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('pricing.unit')}
      </Text>
      <TextInput
        label={t('pricing.search')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={320}
      />
      <QueryState query={pricing}>
        {(models) => <PricingTable models={filterPricing(models, search)} />}
      </QueryState>
    </Stack>
  );
}
