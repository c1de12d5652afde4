import { Body, Controller, Delete, Get, Headers, HttpCode, Ip, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { idParam } from '../common/id-param';
import { Access, Public } from './access.decorator';
import { AuthService } from './auth.service';
import { Caller, type Principal } from './principal';
import { ChangePasswordDto, CredentialsDto, RefreshDto, SignupResponse, TokenResponse } from './dto/credentials.dto';
import { SessionResponse } from './dto/session.dto';

const SESSION_ID = idParam('session_not_found', 'session of yours');

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('signup')
  @Public()
  @ApiOperation({ summary: 'Create an account and start its first session.' })
  @ApiCreatedResponse({ type: SignupResponse })
  @ApiConflictResponse({ description: 'An account with this email already exists.' })
  @ApiTooManyRequestsResponse({ description: 'Too many sign-ups from this address.' })
  signup(
    @Body() body: CredentialsDto,
    @Ip() address: string,
    @Headers('user-agent') userAgent: string | undefined,
  ): Promise<SignupResponse> {
    return this.auth.signup(body.email, body.password, { ipAddress: address, userAgent });
  }

  @Post('login')
  @HttpCode(200)
  @Public()
  @ApiOperation({
    summary: 'Exchange email and password for a new session: an access token (JWT) and a refresh token.',
  })
  @ApiOkResponse({ type: TokenResponse })
  @ApiUnauthorizedResponse({ description: 'The email or password is wrong.' })
  @ApiTooManyRequestsResponse({
    description: 'Too many failed logins for this email from this address (a growing wait), or from this address.',
  })
  login(
    @Body() body: CredentialsDto,
    @Ip() address: string,
    @Headers('user-agent') userAgent: string | undefined,
  ): Promise<TokenResponse> {
    return this.auth.login(body.email, body.password, { ipAddress: address, userAgent });
  }

  @Post('refresh')
  @HttpCode(200)
  @Public()
  @ApiOperation({
    summary: "Exchange the session's refresh token for a new access token and a new refresh token.",
    description:
      'The refresh token sent stops working. Sending an older refresh token of the session again ends the whole session (every access token of it is refused from then on): the person logs in again. A session ends at the latest `refresh_expires_in` seconds after its log-in.',
  })
  @ApiOkResponse({ type: TokenResponse })
  @ApiUnauthorizedResponse({ description: 'The refresh token is unknown, already used, or its session has ended.' })
  refresh(@Body() body: RefreshDto): Promise<TokenResponse> {
    return this.auth.refresh(body.refresh_token);
  }

  @Post('logout')
  @HttpCode(204)
  @Access({ credential: 'jwt' })
  @ApiOperation({ summary: 'End the session of this token: its access and refresh tokens stop working at once.' })
  @ApiNoContentResponse({ description: 'The session has ended.' })
  logout(@Caller() caller: Principal): Promise<void> {
    return this.auth.logout(caller);
  }

  @Post('password')
  @HttpCode(204)
  @Access({ credential: 'jwt' })
  @ApiOperation({
    summary: 'Change your password; every other session of yours ends, this one goes on.',
  })
  @ApiNoContentResponse({ description: 'The password has changed.' })
  @ApiBadRequestResponse({ description: 'The current password is wrong, or the new one is too short.' })
  @ApiTooManyRequestsResponse({ description: 'Too many wrong current passwords from this address.' })
  changePassword(@Caller() caller: Principal, @Body() body: ChangePasswordDto, @Ip() address: string): Promise<void> {
    return this.auth.changePassword(caller, body.current_password, body.new_password, address);
  }

  @Get('sessions')
  @Access({ credential: 'jwt' })
  @ApiOperation({ summary: 'List your live sessions, newest first.' })
  @ApiOkResponse({ type: SessionResponse, isArray: true })
  listSessions(@Caller() caller: Principal): Promise<SessionResponse[]> {
    return this.auth.listSessions(caller);
  }

  @Delete('sessions/:session_id')
  @HttpCode(204)
  @Access({ credential: 'jwt' })
  @ApiOperation({ summary: 'End one of your sessions: its tokens stop working at once.' })
  @ApiNoContentResponse({ description: 'The session has ended (or had already).' })
  @ApiNotFoundResponse({ description: 'No session of yours has this id.' })
  endSession(@Caller() caller: Principal, @Param('session_id', SESSION_ID) sessionId: string): Promise<void> {
    return this.auth.endSession(caller, sessionId);
  }
}
