import { useEffect, useState } from 'preact/hooks';

/**
 * The console's words in English and Korean. English is the reference: the Korean dictionary
 * must have every key (the type says so), and `{name}` marks a value filled in by `t`.
 */
const en = {
  'common.points': 'points',
  'common.loading': 'Loading…',
  'common.working': 'Working…',
  'common.refresh': 'Refresh',
  'common.save': 'Save',
  'common.cancel': 'Cancel',

  'nav.label': 'Main',
  'nav.skip': 'Skip to content',
  'nav.upload': 'Upload',
  'nav.jobs': 'Jobs',
  'nav.keys': 'API keys',
  'nav.sessions': 'Sessions',
  'nav.account': 'Account',
  'nav.language': 'Language',
  'nav.logout': 'Log out',

  'title.login': 'Welcome to docconv',
  'title.upload': 'Convert documents',
  'title.jobs': 'Jobs',
  'title.job': 'Job',
  'title.keys': 'API keys',
  'title.account': 'Account',
  'title.sessions': 'Sessions and password',

  'error.network': 'The service cannot be reached',
  'error.unexpected': 'Something went wrong',
  'error.loginAgain': 'Log in again',

  'login.pitch':
    'Turn PDFs, Office and HWP documents, images and recordings into faithful Markdown, then into DOCX, PPTX or XLSX. You see the exact price before anything is charged.',
  'login.choose': 'Log in or sign up',
  'login.login': 'Log in',
  'login.signup': 'Sign up',
  'login.email': 'Email',
  'login.password': 'Password',
  'login.passwordHint': 'At least 8 characters.',
  'login.loginButton': 'Log in',
  'login.signupButton': 'Create account',

  'keys.explain':
    'API keys are for your programs and the docconv CLI. This console works with your log-in and needs none.',
  'keys.create': 'Create an API key',
  'keys.createButton': 'Create key',
  'keys.defaultName': 'My program',
  'keys.name': 'Name',
  'keys.scopes': 'Scopes',
  'keys.issuedTitle': 'New key: {name}',
  'keys.issuedWarning':
    'Copy this key now and keep it somewhere safe. It is shown only once: we store only its fingerprint and cannot show it again.',
  'keys.secret': 'API key secret',
  'keys.copy': 'Copy',
  'keys.copied': 'Copied',
  'keys.yours': 'Your keys',
  'keys.none': 'You have no API keys yet.',
  'keys.prefix': 'Key',
  'keys.rate': 'Rate limit',
  'keys.perMinute': '{n} / min',
  'keys.state': 'State',
  'keys.active': 'Active',
  'keys.inactive': 'Deactivated',
  'keys.actions': 'Actions',
  'keys.manage': 'Rotate or deactivate {name}',
  'keys.rotateOrDeactivate': 'Rotate or deactivate…',
  'keys.sure': 'The current secret stops working at once.',
  'keys.rotate': 'Rotate',
  'keys.deactivate': 'Deactivate',

  'sessions.explain':
    'Each log-in is a session: this tab, other browsers, the CLI while it logs in. End any you do not recognise; its tokens stop working at once.',
  'sessions.yours': 'Your sessions',
  'sessions.device': 'Device',
  'sessions.address': 'Address',
  'sessions.started': 'Logged in',
  'sessions.lastUsed': 'Last used',
  'sessions.unknownDevice': 'Unknown device',
  'sessions.thisTab': 'This tab',
  'sessions.end': 'End session',
  'sessions.endNamed': 'End the session {name}',
  'password.title': 'Change password',
  'password.explain': 'Every other session ends when the password changes; this tab stays logged in.',
  'password.current': 'Current password',
  'password.new': 'New password',
  'password.button': 'Change password',
  'password.changed': 'Your password has changed, and your other sessions have ended.',

  'upload.drop': 'Drop files here',
  'upload.pick': 'or choose files: {formats}, or a ZIP or TAR of them',
  'upload.limits': 'Up to {files} files, {size} and {pages} pages per upload.',
  'upload.chosen': 'Chosen files',
  'upload.remove': 'Remove {name}',
  'upload.noFiles': 'Choose at least one file to upload.',
  'upload.options': 'Options',
  'upload.model': 'Model',
  'upload.engine': 'OCR engine',
  'upload.engineDefault': 'Automatic ({engine})',
  'upload.enginesRunning': 'Running: {engines}.',
  'upload.speech': 'Audio and video: {model} ({languages} languages).',
  'upload.noSpeech': 'Audio and video cannot be transcribed on this server.',
  'upload.dpi': 'Scan resolution (dpi)',
  'upload.refine': 'Refine the layout with a language model',
  'upload.refineHint': 'Charged per refined page; the price below includes it.',
  'upload.refineUnavailable': 'Layout refinement is not available on this server.',
  'upload.columns': 'Table columns (optional)',
  'upload.columnsPlaceholder': 'Date, Description, Amount',
  'upload.prompt': 'Instructions (optional)',
  'upload.submit': 'Get the price',
  'upload.measuring': 'Uploading and measuring…',

  'quote.title': 'Price',
  'quote.files': 'Files',
  'quote.pages': 'Pages',
  'quote.images': 'Images',
  'quote.audio': 'Audio',
  'quote.video': 'Video',
  'quote.seconds': '{n} s',
  'quote.model': 'Model and engine',
  'quote.freePages': 'Free pages used',
  'quote.refinementPages': 'Refined pages',
  'quote.price': 'Price',
  'quote.balance': 'Your balance',
  'quote.balanceAfter': 'Balance after',
  'quote.expires': 'Price valid until',
  'quote.skipped': '{n} file(s) in your archives or e-mails will not be converted, and are not charged:',
  'quote.short': 'Your balance does not cover this price. Top up your credits, or choose the basic model.',
  'quote.confirm': 'Confirm and pay {price}',
  'quote.discard': 'Discard',

  'jobs.filter': 'Status',
  'jobs.all': 'All',
  'jobs.none': 'No jobs yet. Upload a document to start.',
  'jobs.file': 'File',
  'jobs.status': 'Status',
  'jobs.pages': 'Pages',
  'jobs.cost': 'Cost (points)',
  'jobs.created': 'Created',
  'jobs.more': 'Show more',

  'status.pending': 'Awaiting confirmation',
  'status.queued': 'Queued',
  'status.processing': 'Processing',
  'status.done': 'Done',
  'status.error': 'Failed',
  'status.cancelled': 'Cancelled',

  'format.text': 'plain text',
  'format.eml': 'e-mail (EML)',
  'format.msg': 'Outlook e-mail (MSG)',
  'format.image': 'images (PNG, JPEG, TIFF, WebP, BMP, GIF)',
  'format.audio': 'audio (MP3, WAV, M4A, OGG, Opus, FLAC, WebM)',
  'format.video': 'video (MP4, MOV, WebM, MKV, AVI)',
  'model.basic': 'Basic',
  'model.premium': 'Premium',

  'job.model': 'Model',
  'job.refunded': 'Refunded',
  'job.finished': 'Finished',
  'job.progress': 'Conversion progress',
  'job.progressText': '{donePages} of {totalPages} pages · {doneFiles} of {totalFiles} files',
  'job.rename': 'Rename',
  'job.title': 'Title',
  'job.pending': 'This job is waiting for your confirmation; nothing has been charged.',
  'job.confirm': 'Confirm and pay the quoted price',
  'job.cancel': 'Cancel and refund',
  'job.stop': 'Stop and refund the pages not yet converted',
  'job.stoppedPartial':
    'Stopped at your request after {done} of {total} pages: the pages converted are below, the others were refunded.',
  'job.failed': 'The conversion failed',
  'job.noLog': 'No details were recorded.',
  'job.retry': 'Retry for free ({left} left)',
  'job.refund': 'Refund {price}',
  'job.notRefundable': 'This failure is not refundable.',

  'convert.title': 'Convert the result',
  'format.docx': 'Word (DOCX)',
  'format.pptx': 'PowerPoint (PPTX)',
  'format.hwpx': 'Hancom Office (HWPX)',
  'format.xlsx_basic': 'Excel (XLSX)',
  'format.xlsx_advanced': 'Excel, advanced (XLSX)',
  'convert.free': 'free',
  'convert.paid': 'already paid',
  'convert.button': 'Convert to {format}',
  'convert.confirm': 'Pay {price} and convert',
  'convert.download': 'Download {format}',
  'convert.advancedFailed': 'The advanced conversion failed.',
  'convert.retry': 'Retry for free',
  'convert.refund': 'Refund',

  'result.title': 'Markdown',
  'result.download': 'Download Markdown',
  'result.view': 'View',
  'result.rendered': 'Rendered',
  'result.source': 'Source',
  'result.truncated': 'Only the beginning is shown here; the download holds the whole result.',

  'pages.title': 'Pages',
  'pages.hint': 'Each page beside its Markdown. Point at a block to see where it stands on the page.',
  'pages.page': 'Page {page}',
  'pages.of': '{file}, page {page} of {count}',
  'pages.previous': 'Previous page',
  'pages.next': 'Next page',
  'pages.source': 'Read from {source}',
  'pages.engine': 'engine {engine}, confidence {confidence}',
  'pages.lowConfidence': 'Low confidence: check this page against the image.',
  'pages.failed': 'This page could not be read; it was not charged.',
  'pages.empty': 'No text was found on this page.',
  'pages.image': 'Page {page} of {file}',
  'pages.figure': 'Picture: {caption}',
  'pages.downloadJson': 'Download JSON',
  'pages.downloadZip': 'Download ZIP (Markdown, JSON, pictures)',

  'account.balance': 'Balance',
  'account.today': 'today: {requests} requests, {points} points spent',
  'account.freePages': 'Free basic pages left this month: {left} of {monthly} (renews {date})',
  'account.noPurchase': 'Credits cannot be bought on this server; the operator adds them.',
  'account.usage': 'Usage, last 30 days',
  'account.usageCaption': 'Requests (bars) and points spent (line) per UTC day.',
  'account.usageTable': 'Usage as a table',
  'account.day': 'Day (UTC)',
  'account.requests': 'Requests',
  'account.pointsSpent': 'Points spent',
  'account.transactions': 'Transactions',
  'account.noTransactions': 'No transactions yet.',
  'account.when': 'When',
  'account.type': 'Type',
  'account.amount': 'Amount',
  'account.balanceAfter': 'Balance after',
  'account.description': 'Description',
  'account.payments': 'Payments',
  'account.noPayments': 'No payments yet.',
  'account.provider': 'Provider',
  'account.pointsAdded': 'Points added',
  'account.state': 'State',

  'buy.open': 'Buy credits',
  'buy.title': 'Buy credits',
  'buy.amount': 'Amount (US dollars)',
  'buy.other': 'Other amount',
  'buy.customLabel': 'Whole dollars, {min} to {max}',
  'buy.adds': '{usd} adds {points} points ({value} of conversions).',
  'buy.outOfRange': 'Enter a whole number of dollars from {min} to {max}.',
  'buy.stripe': 'You pay on Stripe’s secure page, then come back here. Nothing is charged before you pay there.',
  'buy.continue': 'Continue to payment',
  'buy.confirming': 'Thank you! Your payment is being confirmed; the new balance appears here in a moment.',
  'buy.confirmed': 'Payment received: {points} points were added to your balance.',
  'buy.unconfirmed':
    'The payment is not confirmed yet. The points are added as soon as Stripe confirms it; refresh this page in a few minutes.',
  'buy.cancelled': 'The payment was cancelled; nothing was charged.',
  'buy.pending':
    'Thank you! Your bank payment is on its way: {points} points are added as soon as it clears, which can take a few business days.',
  'buy.pendingSome':
    'Thank you! Your bank payment is on its way: the points are added as soon as it clears, which can take a few business days.',
  'buy.failed': 'The payment did not go through, so no points were added and nothing is owed. You can try again.',

  'payment.done': 'Paid',
  'payment.pending': 'Pending',
  'payment.failed': 'Failed',
  'payment.refunded': 'Refunded',
  'payment.pendingHint': 'A pending payment adds its points as soon as the bank confirms it.',
} as const;

export type MessageKey = keyof typeof en;

const ko: Record<MessageKey, string> = {
  'common.points': '포인트',
  'common.loading': '불러오는 중…',
  'common.working': '처리 중…',
  'common.refresh': '새로 고침',
  'common.save': '저장',
  'common.cancel': '취소',

  'nav.label': '주 메뉴',
  'nav.skip': '본문으로 건너뛰기',
  'nav.upload': '업로드',
  'nav.jobs': '작업',
  'nav.keys': 'API 키',
  'nav.sessions': '세션',
  'nav.account': '계정',
  'nav.language': '언어',
  'nav.logout': '로그아웃',

  'title.login': 'docconv에 오신 것을 환영합니다',
  'title.upload': '문서 변환',
  'title.jobs': '작업',
  'title.job': '작업',
  'title.keys': 'API 키',
  'title.account': '계정',
  'title.sessions': '세션과 비밀번호',

  'error.network': '서비스에 연결할 수 없습니다',
  'error.unexpected': '문제가 발생했습니다',
  'error.loginAgain': '다시 로그인',

  'login.pitch':
    'PDF, 오피스, 한글(HWP) 문서와 이미지, 녹음 파일을 정확한 마크다운으로 바꾸고, 다시 DOCX, PPTX, XLSX로 변환합니다. 결제 전에 정확한 가격을 먼저 보여 드립니다.',
  'login.choose': '로그인 또는 가입',
  'login.login': '로그인',
  'login.signup': '가입',
  'login.email': '이메일',
  'login.password': '비밀번호',
  'login.passwordHint': '8자 이상.',
  'login.loginButton': '로그인',
  'login.signupButton': '계정 만들기',

  'keys.explain':
    'API 키는 직접 만든 프로그램과 docconv CLI용입니다. 이 콘솔은 로그인으로 작동하므로 키가 필요 없습니다.',
  'keys.create': 'API 키 만들기',
  'keys.createButton': '키 만들기',
  'keys.defaultName': '내 프로그램',
  'keys.name': '이름',
  'keys.scopes': '권한',
  'keys.issuedTitle': '새 키: {name}',
  'keys.issuedWarning':
    '지금 이 키를 복사해 안전한 곳에 보관하세요. 키는 한 번만 표시됩니다. 저희는 지문만 저장하므로 다시 보여 드릴 수 없습니다.',
  'keys.secret': 'API 키 값',
  'keys.copy': '복사',
  'keys.copied': '복사됨',
  'keys.yours': '내 키',
  'keys.none': '아직 API 키가 없습니다.',
  'keys.prefix': '키',
  'keys.rate': '요청 한도',
  'keys.perMinute': '분당 {n}회',
  'keys.state': '상태',
  'keys.active': '사용 중',
  'keys.inactive': '비활성화됨',
  'keys.actions': '작업',
  'keys.manage': '{name} 교체 또는 비활성화',
  'keys.rotateOrDeactivate': '교체 또는 비활성화…',
  'keys.sure': '현재 키 값은 즉시 사용할 수 없게 됩니다.',
  'keys.rotate': '교체',
  'keys.deactivate': '비활성화',

  'sessions.explain':
    '로그인할 때마다 세션이 하나 생깁니다: 이 탭, 다른 브라우저, 로그인 중인 CLI. 모르는 세션은 끝내세요. 그 토큰은 즉시 쓸 수 없게 됩니다.',
  'sessions.yours': '내 세션',
  'sessions.device': '기기',
  'sessions.address': '주소',
  'sessions.started': '로그인',
  'sessions.lastUsed': '마지막 사용',
  'sessions.unknownDevice': '알 수 없는 기기',
  'sessions.thisTab': '이 탭',
  'sessions.end': '세션 끝내기',
  'sessions.endNamed': '{name} 세션 끝내기',
  'password.title': '비밀번호 변경',
  'password.explain': '비밀번호를 바꾸면 다른 세션은 모두 끝나고, 이 탭은 로그인된 채로 남습니다.',
  'password.current': '현재 비밀번호',
  'password.new': '새 비밀번호',
  'password.button': '비밀번호 변경',
  'password.changed': '비밀번호가 바뀌었고 다른 세션은 모두 끝났습니다.',

  'upload.drop': '여기에 파일을 끌어다 놓으세요',
  'upload.pick': '또는 파일 선택: {formats} 또는 이들을 묶은 ZIP, TAR',
  'upload.limits': '한 번에 최대 {files}개 파일, {size}, {pages}쪽까지 올릴 수 있습니다.',
  'upload.chosen': '선택한 파일',
  'upload.remove': '{name} 빼기',
  'upload.noFiles': '올릴 파일을 하나 이상 선택하세요.',
  'upload.options': '옵션',
  'upload.model': '모델',
  'upload.engine': 'OCR 엔진',
  'upload.engineDefault': '자동 ({engine})',
  'upload.enginesRunning': '실행 중: {engines}.',
  'upload.speech': '오디오·동영상: {model} ({languages}개 언어).',
  'upload.noSpeech': '이 서버에서는 오디오와 동영상을 받아쓸 수 없습니다.',
  'upload.dpi': '스캔 해상도(dpi)',
  'upload.refine': '언어 모델로 레이아웃 다듬기',
  'upload.refineHint': '다듬은 쪽마다 요금이 붙으며, 아래 가격에 포함됩니다.',
  'upload.refineUnavailable': '이 서버에서는 레이아웃 다듬기를 쓸 수 없습니다.',
  'upload.columns': '표 열 이름(선택)',
  'upload.columnsPlaceholder': '날짜, 내용, 금액',
  'upload.prompt': '추가 지시(선택)',
  'upload.submit': '가격 보기',
  'upload.measuring': '올리고 측정하는 중…',

  'quote.title': '가격',
  'quote.files': '파일',
  'quote.pages': '쪽',
  'quote.images': '이미지',
  'quote.audio': '오디오',
  'quote.video': '비디오',
  'quote.seconds': '{n}초',
  'quote.model': '모델과 엔진',
  'quote.freePages': '무료로 처리되는 쪽',
  'quote.refinementPages': '다듬을 쪽',
  'quote.price': '가격',
  'quote.balance': '현재 잔액',
  'quote.balanceAfter': '결제 후 잔액',
  'quote.skipped': '압축 파일이나 메일 안의 파일 {n}개는 변환하지 않으며 요금도 받지 않습니다:',
  'quote.expires': '가격 유효 기한',
  'quote.short': '잔액이 부족합니다. 크레딧을 충전하거나 기본 모델을 선택하세요.',
  'quote.confirm': '확인하고 {price} 결제',
  'quote.discard': '취소하고 버리기',

  'jobs.filter': '상태',
  'jobs.all': '전체',
  'jobs.none': '아직 작업이 없습니다. 문서를 올려 시작하세요.',
  'jobs.file': '파일',
  'jobs.status': '상태',
  'jobs.pages': '쪽',
  'jobs.cost': '비용(포인트)',
  'jobs.created': '만든 시각',
  'jobs.more': '더 보기',

  'status.pending': '확인 대기',
  'status.queued': '대기 중',
  'status.processing': '처리 중',
  'status.done': '완료',
  'status.error': '실패',
  'status.cancelled': '취소됨',

  'format.text': '일반 텍스트',
  'format.eml': '이메일(EML)',
  'format.msg': 'Outlook 이메일(MSG)',
  'format.image': '이미지(PNG, JPEG, TIFF, WebP, BMP, GIF)',
  'format.audio': '오디오(MP3, WAV, M4A, OGG, Opus, FLAC, WebM)',
  'format.video': '비디오(MP4, MOV, WebM, MKV, AVI)',
  'model.basic': '기본',
  'model.premium': '프리미엄',

  'job.model': '모델',
  'job.refunded': '환불됨',
  'job.finished': '끝난 시각',
  'job.progress': '변환 진행률',
  'job.progressText': '{totalPages}쪽 중 {donePages}쪽 · 파일 {totalFiles}개 중 {doneFiles}개',
  'job.rename': '이름 바꾸기',
  'job.title': '제목',
  'job.pending': '이 작업은 확인을 기다리고 있습니다. 아직 아무것도 결제되지 않았습니다.',
  'job.confirm': '확인하고 안내된 가격 결제',
  'job.cancel': '취소하고 환불',
  'job.stop': '중단하고 아직 변환하지 않은 페이지 환불',
  'job.stoppedPartial':
    '요청에 따라 {total}쪽 중 {done}쪽에서 중단했습니다. 변환된 페이지는 아래에 있고, 나머지는 환불되었습니다.',
  'job.failed': '변환에 실패했습니다',
  'job.noLog': '기록된 내용이 없습니다.',
  'job.retry': '무료로 다시 시도({left}회 남음)',
  'job.refund': '{price} 환불',
  'job.notRefundable': '이 실패는 환불 대상이 아닙니다.',

  'convert.title': '결과 변환',
  'format.docx': '워드(DOCX)',
  'format.pptx': '파워포인트(PPTX)',
  'format.hwpx': '한글(HWPX)',
  'format.xlsx_basic': '엑셀(XLSX)',
  'format.xlsx_advanced': '엑셀 고급(XLSX)',
  'convert.free': '무료',
  'convert.paid': '결제 완료',
  'convert.button': '{format}(으)로 변환',
  'convert.confirm': '{price} 결제하고 변환',
  'convert.download': '{format} 내려받기',
  'convert.advancedFailed': '고급 변환에 실패했습니다.',
  'convert.retry': '무료로 다시 시도',
  'convert.refund': '환불',

  'result.title': '마크다운',
  'result.download': '마크다운 내려받기',
  'result.view': '보기',
  'result.rendered': '렌더링',
  'result.source': '원문',
  'result.truncated': '여기에는 앞부분만 보입니다. 내려받은 파일에는 결과 전체가 들어 있습니다.',

  'pages.title': '페이지',
  'pages.hint': '각 페이지를 마크다운과 나란히 보여 줍니다. 블록을 가리키면 페이지에서 그 위치가 표시됩니다.',
  'pages.page': '{page}쪽',
  'pages.of': '{file}, {count}쪽 중 {page}쪽',
  'pages.previous': '이전 페이지',
  'pages.next': '다음 페이지',
  'pages.source': '읽은 방식: {source}',
  'pages.engine': '엔진 {engine}, 신뢰도 {confidence}',
  'pages.lowConfidence': '신뢰도가 낮습니다. 이미지와 비교해 확인하세요.',
  'pages.failed': '이 페이지는 읽지 못했으며 요금이 청구되지 않았습니다.',
  'pages.empty': '이 페이지에서 텍스트를 찾지 못했습니다.',
  'pages.image': '{file}의 {page}쪽',
  'pages.figure': '그림: {caption}',
  'pages.downloadJson': 'JSON 내려받기',
  'pages.downloadZip': 'ZIP 내려받기 (마크다운, JSON, 그림)',

  'account.balance': '잔액',
  'account.today': '오늘: 요청 {requests}회, {points}포인트 사용',
  'account.freePages': '이번 달 남은 basic 무료 쪽수: {monthly}쪽 중 {left}쪽 ({date} 갱신)',
  'account.noPurchase': '이 서버에서는 크레딧을 구매할 수 없습니다. 운영자가 충전해 드립니다.',
  'account.usage': '최근 30일 사용량',
  'account.usageCaption': 'UTC 날짜별 요청 수(막대)와 사용 포인트(선).',
  'account.usageTable': '사용량 표로 보기',
  'account.day': '날짜(UTC)',
  'account.requests': '요청',
  'account.pointsSpent': '사용 포인트',
  'account.transactions': '거래 내역',
  'account.noTransactions': '아직 거래가 없습니다.',
  'account.when': '시각',
  'account.type': '종류',
  'account.amount': '금액',
  'account.balanceAfter': '거래 후 잔액',
  'account.description': '설명',
  'account.payments': '결제',
  'account.noPayments': '아직 결제가 없습니다.',
  'account.provider': '결제 수단',
  'account.pointsAdded': '충전 포인트',
  'account.state': '상태',

  'buy.open': '크레딧 구매',
  'buy.title': '크레딧 구매',
  'buy.amount': '금액(미국 달러)',
  'buy.other': '다른 금액',
  'buy.customLabel': '{min}~{max}달러, 1달러 단위',
  'buy.adds': '{usd}로 {points}포인트가 충전됩니다(변환 {value}어치).',
  'buy.outOfRange': '{min}~{max} 사이의 정수 달러 금액을 입력하세요.',
  'buy.stripe':
    'Stripe의 보안 결제 페이지에서 결제한 뒤 이곳으로 돌아옵니다. 그곳에서 결제하기 전에는 아무것도 청구되지 않습니다.',
  'buy.continue': '결제 계속하기',
  'buy.confirming': '감사합니다! 결제를 확인하고 있습니다. 잠시 후 새 잔액이 여기에 표시됩니다.',
  'buy.confirmed': '결제가 완료되어 {points}포인트가 잔액에 추가되었습니다.',
  'buy.unconfirmed':
    '아직 결제가 확인되지 않았습니다. Stripe가 확인하는 즉시 포인트가 추가되니 몇 분 뒤에 이 페이지를 새로 고쳐 주세요.',
  'buy.cancelled': '결제가 취소되었습니다. 청구된 금액은 없습니다.',
  'buy.pending':
    '감사합니다! 계좌 결제가 진행 중입니다. 입금이 확인되는 즉시 {points}포인트가 추가되며, 영업일 기준 며칠이 걸릴 수 있습니다.',
  'buy.pendingSome':
    '감사합니다! 계좌 결제가 진행 중입니다. 입금이 확인되는 즉시 포인트가 추가되며, 영업일 기준 며칠이 걸릴 수 있습니다.',
  'buy.failed': '결제가 이루어지지 않아 포인트가 추가되지 않았고 청구된 금액도 없습니다. 다시 시도할 수 있습니다.',

  'payment.done': '완료',
  'payment.pending': '대기 중',
  'payment.failed': '실패',
  'payment.refunded': '환불됨',
  'payment.pendingHint': '대기 중인 결제는 은행에서 확인되는 즉시 포인트가 추가됩니다.',
};

export type Language = 'en' | 'ko';
export const LANGUAGES: { code: Language; name: string }[] = [
  { code: 'en', name: 'English' },
  { code: 'ko', name: '한국어' },
];
export const DICTIONARIES: Record<Language, Record<MessageKey, string>> = { en, ko };

const STORAGE_KEY = 'docconv.language';
const listeners = new Set<() => void>();

/** The language chosen in this browser before, else the first of the browser's languages we speak. */
export function detectLanguage(stored: string | null, preferred: readonly string[]): Language {
  if (stored === 'en' || stored === 'ko') return stored;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'ko' || base === 'en') return base;
  }
  return 'en';
}

let language: Language = detectLanguage(readStored(), navigator.languages ?? [navigator.language]);
document.documentElement.lang = language;

function readStored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function currentLanguage(): Language {
  return language;
}

export function setLanguage(next: Language): void {
  language = next;
  document.documentElement.lang = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Private windows may refuse storage; the choice then lasts until the page reloads.
  }
  for (const listener of listeners) listener();
}

/** The current language, re-rendering the caller when it changes. */
export function useLanguage(): Language {
  const [value, setValue] = useState(language);
  useEffect(() => {
    const listener = () => setValue(language);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return value;
}

/** A format's name in the current language: the server's label, unless it is a word rather than a format's own name. */
export function formatLabel(format: { format: string; label: string }): string {
  const key = `format.${format.format}`;
  return key in en ? t(key as MessageKey) : format.label;
}

/** The message for `key` in the current language, with `{name}` placeholders filled from `values`. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return DICTIONARIES[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
