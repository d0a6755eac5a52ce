import type { Texts } from './en';
import { zhCNAdmin } from './zh-cn/admin';
import { zhCNCommon } from './zh-cn/common';
import { zhCNConfigFile } from './zh-cn/config-file';
import { zhCNLimits } from './zh-cn/limits';
import { zhCNRouting } from './zh-cn/routing';
import { zhCNUsage } from './zh-cn/usage';

/** 简体中文: the same keys as `en.ts`, checked by the type. */
export const zhCN: Texts = {
  ...zhCNCommon,
  ...zhCNAdmin,
  ...zhCNLimits,
  ...zhCNRouting,
  ...zhCNUsage,
  ...zhCNConfigFile,
};
