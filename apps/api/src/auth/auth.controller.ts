import { Body, Controller, HttpCode, Ip, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Access, Public } from './access.decorator';
import { AuthService } from './auth.service';
import { Caller, type Principal } from './principal';
import { CredentialsDto, SignupResponse, TokenResponse } from './dto/credentials.dto';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('signup')
  @Public()
  @ApiOperation({ summary: 'Create an account and receive a session token.' })
  @ApiCreatedResponse({ type: SignupResponse })
  @ApiConflictResponse({ description: 'An account with this email already exists.' })
  @ApiTooManyRequestsResponse({ description: 'Too many sign-ups from this address.' })
  signup(@Body() body: CredentialsDto, @Ip() address: string): Promise<SignupResponse> {
    return this.auth.signup(body.email, body.password, address);
  }

  @Post('login')
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Exchange email and password for a session token (JWT).' })
  @ApiOkResponse({ type: TokenResponse })
  @ApiUnauthorizedResponse({ description: 'The email or password is wrong.' })
  @ApiTooManyRequestsResponse({
    description: 'Too many failed logins for this email from this address (a growing wait), or from this address.',
  })
  login(@Body() body: CredentialsDto, @Ip() address: string): Promise<TokenResponse> {
    return this.auth.login(body.email, body.password, address);
  }

  @Post('refresh')
  @HttpCode(200)
  @Access({ credential: 'jwt' })
  @ApiOperation({
    summary: 'Exchange a session token that still works for a new one with a full lifetime.',
    description:
      'Send the current token as `Authorization: Bearer <JWT>`. The old token keeps working until it expires; an expired one is refused (401) and the user logs in again.',
  })
  @ApiOkResponse({ type: TokenResponse })
  refresh(@Caller() caller: Principal): TokenResponse {
    return this.auth.refresh(caller.userId);
  }
}
