// API object types, from the contract.
import type { components } from '@content-workspace/contract';

export type Schemas = components['schemas'];
export type ApiUser = Schemas['User'];
export type ApiOrganization = Schemas['Organization'];
export type ApiToken = Schemas['ApiToken'];
export type ApiCreatedToken = Schemas['CreatedApiToken'];
