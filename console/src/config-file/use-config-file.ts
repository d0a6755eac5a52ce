import { useQuery } from '@tanstack/react-query';
import { fetchConfigFile } from '../api/config-file-api';
import { queryKeys } from '../api/query-keys';

/** The configuration file that manages entities, and the settings it declares (admin-api section 13). */
export function useConfigFile() {
  return useQuery({ queryKey: queryKeys.configFile, queryFn: fetchConfigFile });
}
