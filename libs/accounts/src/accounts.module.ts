import { Module } from '@nestjs/common';
import { AccountService } from './account.service';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeysService } from './api-keys.service';
import { SessionsService } from './sessions.service';
import { TokensService } from './tokens.service';
import { UsersService } from './users.service';

@Module({
  providers: [UsersService, TokensService, SessionsService, ApiKeysService, AccountService, ApiKeyCache],
  exports: [UsersService, TokensService, SessionsService, ApiKeysService, AccountService],
})
export class AccountsModule {}
