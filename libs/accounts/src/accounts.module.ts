import { Module } from '@nestjs/common';
import { AccountService } from './account.service';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeysService } from './api-keys.service';
import { TokensService } from './tokens.service';
import { UsersService } from './users.service';

@Module({
  providers: [UsersService, TokensService, ApiKeysService, AccountService, ApiKeyCache],
  exports: [UsersService, TokensService, ApiKeysService, AccountService],
})
export class AccountsModule {}
