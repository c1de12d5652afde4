import { Module } from '@nestjs/common';
import { TokensService } from './tokens.service';
import { UsersService } from './users.service';

@Module({ providers: [UsersService, TokensService], exports: [UsersService, TokensService] })
export class AccountsModule {}
