/**
 * A general English ↔ Korean lexicon for bridging a question to memory
 * written in the other language (bridge.ts). Data, not code: one concept a
 * line, `english words | korean words`, each side comma-separated. English
 * words are matched by their analysed stem (Porter), Korean words by their
 * stem (the particle or 하다/되다 ending off), so write the dictionary form:
 * `dentist, dental | 치과`.
 *
 * What belongs here: the everyday and working vocabulary a personal or
 * coding agent's memory is written in — people and family, health, home,
 * money, travel, time, work, school, food, feelings and preferences,
 * software — the words a question would be asked with. Not names (a name
 * written in Latin letters is kept as it is in both renderings), and not
 * words of one conversation, nor numbers (a month is a date: tokenizer.ts). A word with several senses is in each of its
 * concepts; the bridge caps how many renderings a word brings. An English
 * form whose stem is another word's is left out where the senses part
 * (booking → book: the book is not the reservation).
 */
export const KO_EN_LEXICON = `
# people and family
family | 가족, 식구
father, dad | 아버지, 아빠, 부친
mother, mom, mum | 어머니, 엄마, 모친
parent | 부모, 부모님
son | 아들
daughter | 딸
child, kid, children | 아이, 애, 자녀, 아이들
baby, infant | 아기, 애기
brother | 형, 오빠, 남동생, 동생, 형제
sister | 누나, 언니, 여동생, 동생, 자매
sibling | 형제, 남매, 동생
grandfather, grandpa | 할아버지
grandmother, grandma | 할머니
grandparent | 조부모
grandchild, grandson, granddaughter | 손주, 손자, 손녀
uncle | 삼촌, 이모부, 고모부, 외삼촌
aunt | 이모, 고모, 숙모
cousin | 사촌
nephew, niece | 조카
husband | 남편
wife | 아내, 부인, 와이프
spouse, partner | 배우자, 파트너
boyfriend | 남자친구, 남친
girlfriend | 여자친구, 여친
wedding, marriage, married | 결혼, 결혼식, 웨딩
divorce | 이혼
engagement, engaged, fiance | 약혼
friend | 친구
colleague, coworker | 동료, 직장동료
boss, manager | 상사, 팀장, 매니저, 부장
neighbor, neighbour | 이웃
roommate | 룸메이트
teacher | 선생님, 교사
student | 학생
doctor | 의사, 선생님
nurse | 간호사
lawyer | 변호사
client, customer | 고객, 손님, 클라이언트
guest | 손님
birthday | 생일
anniversary | 기념일
age, old | 나이
name | 이름
person, people | 사람
# body and health
health, healthy | 건강
checkup, physical | 건강검진, 검진
hospital | 병원
clinic | 병원, 의원, 클리닉
dentist, dental | 치과
tooth, teeth | 이, 치아
eye | 눈
ophthalmologist, optometrist | 안과
dermatologist, skin | 피부과, 피부
pediatrician | 소아과
pharmacy, pharmacist | 약국, 약사
medicine, medication, pill, drug | 약
prescription | 처방, 처방전
vaccine, vaccination, shot | 백신, 예방접종, 접종
flu | 독감
cold | 감기
fever | 열
cough | 기침
headache | 두통
pain, ache, hurt | 통증, 아픔
knee | 무릎
shoulder | 어깨
allergy, allergic | 알레르기, 알러지
asthma | 천식
diabetes | 당뇨
blood | 혈액, 피
pressure | 혈압, 압력
surgery, operation | 수술
injury, injured | 부상
broken, fracture | 골절
physiotherapy, physio, therapy | 물리치료, 치료
therapist, counselling, counseling | 상담, 치료사
diet | 다이어트, 식단
weight | 체중, 몸무게
sleep, insomnia | 잠, 수면, 불면증
stress, stressed | 스트레스
pregnant, pregnancy | 임신
insurance | 보험
exercise, workout | 운동
gym | 헬스장, 헬스, 체육관
yoga | 요가
running, jog, jogging | 달리기, 러닝, 조깅
swimming, swim | 수영
hiking, hike | 등산, 하이킹
walk | 산책, 걷기
# pets
dog, puppy | 개, 강아지, 반려견
cat, kitten | 고양이, 반려묘
pet | 반려동물, 애완동물
vet, veterinarian | 동물병원, 수의사
# home
home, house | 집, 주택
apartment, flat | 아파트, 집
room | 방
bedroom | 침실, 안방
kitchen | 부엌, 주방
bathroom | 화장실, 욕실
living | 거실
garden, yard | 정원, 마당
move, moving, relocate | 이사, 이전
rent | 월세, 임대, 렌트
deposit | 보증금, 전세, 계약금
lease, contract | 계약
landlord | 집주인
mortgage, loan | 대출, 주택담보대출
address | 주소
neighborhood, neighbourhood, area | 동네, 지역
furniture | 가구
sofa, couch | 소파
bed | 침대
desk | 책상
chair | 의자
table | 식탁, 테이블
fridge, refrigerator | 냉장고
washing, washer, laundry | 세탁기, 빨래, 세탁
cleaning, clean | 청소
repair, fix | 수리, 고치
plumber | 배관공
electricity, electric, power | 전기
internet, wifi | 인터넷, 와이파이
key | 열쇠, 키
door | 문
window | 창문
heating, heater | 난방, 히터
air | 에어컨, 공기
# money
money | 돈
price, cost | 가격, 비용, 값
expensive | 비싸
cheap | 싸, 저렴
budget | 예산
salary, pay, wage | 월급, 급여, 연봉
bonus | 보너스, 상여금
tax | 세금
bank | 은행
account | 계좌, 계정
card | 카드
credit | 신용
cash | 현금
payment, pay, paid | 결제, 지불, 납부
bill, invoice | 청구서, 고지서, 인보이스
refund | 환불
discount, sale | 할인, 세일
saving, savings | 저축, 적금
investment, invest, stock | 투자, 주식
subscription, subscribe | 구독
fee, charge | 요금, 수수료
debt | 빚, 부채
dollar | 달러
# shopping
shopping, shop | 쇼핑, 장보기
buy, bought, purchase | 구매, 구입, 사
order | 주문
delivery, deliver, shipping | 배송, 배달, 택배
return | 반품, 반납
gift, present | 선물
store | 가게, 매장, 상점
market | 시장, 마켓
grocery, groceries | 장보기, 식료품
clothes, clothing | 옷, 의류
shoes | 신발
bag | 가방
phone | 핸드폰, 휴대폰, 전화, 폰
laptop | 노트북
computer | 컴퓨터
camera | 카메라
watch | 시계
book | 책
toy | 장난감
# food
food | 음식
meal | 식사, 밥
breakfast | 아침, 아침밥
lunch | 점심
dinner | 저녁, 저녁밥
restaurant | 식당, 레스토랑
cafe, coffee | 카페, 커피
decaf, decaffeinated | 디카페인
tea | 차
water | 물
beer | 맥주
wine | 와인
alcohol, drink, drinking | 술, 음주
vegetarian | 채식, 채식주의자
vegan | 비건
meat | 고기
beef | 소고기
pork | 돼지고기
chicken | 닭고기, 치킨, 닭
fish | 생선, 물고기
seafood | 해산물
rice | 쌀, 밥
noodle | 국수, 면
bread | 빵
cake | 케이크
fruit | 과일
vegetable | 채소, 야채
spicy | 매운, 맵
sweet | 단, 달
cook, cooking, recipe | 요리, 레시피
bake, baking, bakery | 베이킹, 빵집, 제과점
# travel and transport
travel, trip, journey | 여행
vacation, holiday | 휴가, 방학, 연휴
flight, fly, plane | 비행기, 항공편, 비행
airport | 공항
airline | 항공사
ticket | 표, 티켓
passport | 여권
visa | 비자
hotel | 호텔, 숙소
accommodation, lodging | 숙소, 숙박
reservation, reserve | 예약
cancel, cancellation, cancelled, canceled | 취소
schedule, itinerary | 일정, 스케줄
luggage, baggage, suitcase | 짐, 수하물, 캐리어
train | 기차, 열차, 케이티엑스
bus | 버스
subway, metro | 지하철
taxi | 택시
car | 차, 자동차
drive, driving | 운전
license, licence | 면허, 면허증, 라이선스
parking | 주차
park | 공원
beach | 해변, 바다
sea, ocean | 바다
mountain | 산
island | 섬
city | 도시
country | 나라, 국가
abroad, overseas | 해외
map | 지도
# places
korea, korean | 한국
seoul | 서울
busan | 부산
jeju | 제주, 제주도
incheon | 인천
daegu | 대구
gwangju | 광주
daejeon | 대전
gangnam | 강남
japan, japanese | 일본
tokyo | 도쿄
osaka | 오사카
kyoto | 교토
fukuoka | 후쿠오카
okinawa | 오키나와
sapporo | 삿포로
china, chinese | 중국
beijing | 베이징
shanghai | 상하이
taiwan | 대만
taipei | 타이베이
vietnam | 베트남
thailand | 태국
bangkok | 방콕
singapore | 싱가포르
america, usa, american | 미국
canada | 캐나다
europe | 유럽
france, paris | 프랑스, 파리
germany, berlin | 독일, 베를린
italy, rome | 이탈리아, 로마
spain | 스페인
uk, britain, england, london | 영국, 런던
australia | 호주
new york | 뉴욕
# time
today | 오늘
tomorrow | 내일
yesterday | 어제
week, weekly | 주, 일주일, 주간
weekend | 주말
month, monthly | 달, 월
year, yearly, annual | 년, 해, 연간
morning | 아침, 오전
afternoon | 오후
evening, night | 저녁, 밤
date, day | 날짜, 날, 일
time | 시간
deadline, due | 마감, 마감일, 기한
appointment | 예약, 약속, 진료
meeting | 회의, 미팅
plan, planned | 계획, 예정
event | 행사, 이벤트
party | 파티
festival | 축제
concert | 콘서트, 공연
calendar | 달력, 캘린더
reminder, remind | 알림, 리마인더
monday | 월요일
tuesday | 화요일
wednesday | 수요일
thursday | 목요일
friday | 금요일
saturday | 토요일
sunday | 일요일
spring | 봄
summer | 여름
autumn, fall | 가을
winter | 겨울
christmas | 크리스마스
new year | 새해, 설날
thanksgiving | 추석
# work and school
work, job | 일, 직장, 업무
company, firm | 회사
office | 사무실
career | 경력, 커리어
interview | 면접, 인터뷰
resume, cv | 이력서
hire, hiring, recruit | 채용
promotion, promoted | 승진
resign, quit | 퇴사, 사직
retire, retirement | 은퇴, 퇴직
freelance, freelancer | 프리랜서
startup | 스타트업
business | 사업, 비즈니스
project | 프로젝트
task, todo | 할일, 작업, 과제
team | 팀
report | 보고서, 리포트
presentation | 발표, 프레젠테이션
document, doc | 문서
email, mail | 이메일, 메일
message, text | 메시지, 문자
call | 전화, 통화
school | 학교
kindergarten, preschool | 유치원
daycare | 어린이집
university, college | 대학교, 대학
class, lesson | 수업, 강의, 레슨
course | 과정, 강좌, 코스
exam, test | 시험
homework | 숙제
grade, score | 성적, 점수
study | 공부
english | 영어
language | 언어
certificate | 자격증, 증명서
# hobbies and feelings
hobby | 취미
music | 음악
movie, film | 영화
game | 게임
reading, read | 독서
drawing, painting | 그림
photo, photography, picture | 사진
pottery, ceramics | 도자기, 도예
knitting | 뜨개질
guitar | 기타
piano | 피아노
soccer, football | 축구
baseball | 야구
tennis | 테니스
golf | 골프
camping, camp | 캠핑
fishing | 낚시
love, favorite, favourite | 좋아하, 좋아, 최애
dislike, hate | 싫어하, 싫어
prefer, preference | 선호
happy | 행복
sad | 슬퍼, 슬픔
worried, worry, anxious | 걱정, 불안
tired | 피곤
busy | 바쁘, 바빠
excited | 신나, 설레
angry | 화
# decisions and changes
decide, decision, decided | 결정
choose, choice, chose | 선택
change, changed | 변경, 바꾸, 바뀌
switch, migrate, migration | 전환, 이전, 마이그레이션, 바꾸
start, begin, started | 시작
finish, finished, complete, done | 완료, 끝, 마무리
stop | 중단, 그만
continue | 계속
postpone, delay, reschedule | 연기, 미루
confirm, confirmed | 확정, 확인
check | 확인, 체크
problem, issue, trouble | 문제, 이슈
error | 오류, 에러
solve, solution, resolve | 해결
question | 질문
answer | 답, 답변
idea | 아이디어, 생각
goal | 목표
reason | 이유
result | 결과
rule | 규칙
policy | 정책
priority | 우선순위
request | 요청
approval, approve | 승인
agree, agreement | 동의, 합의
support | 지원
help | 도움
advice | 조언
recommend, recommendation | 추천
review | 리뷰, 검토
feedback | 피드백
# software
software, program | 소프트웨어, 프로그램
app, application | 앱, 애플리케이션, 어플
website, site | 웹사이트, 사이트
server | 서버
database, db | 데이터베이스, 디비
data | 데이터
backup | 백업
storage | 저장소, 스토리지
file | 파일
folder, directory | 폴더, 디렉토리
code | 코드
bug | 버그
crash | 크래시, 다운
fix, patch | 수정, 패치
test, testing | 테스트
deploy, deployment, release | 배포, 릴리스
build | 빌드
install, installation | 설치
update, upgrade | 업데이트, 업그레이드
version | 버전
feature | 기능
login, signin | 로그인
logout | 로그아웃
signup, register, registration | 회원가입, 가입, 등록
authentication, auth | 인증
authorization, permission | 권한
password | 비밀번호, 패스워드
token | 토큰
security, secure | 보안
user | 사용자, 유저
admin, administrator | 관리자
account | 계정
setting, settings, config, configuration | 설정
environment, env | 환경
variable | 변수
api | 에이피아이
endpoint | 엔드포인트
frontend | 프론트엔드, 프론트
backend | 백엔드
design | 디자인, 설계
page | 페이지
screen | 화면
button | 버튼
search | 검색
notification | 알림
payment | 결제
performance, speed, slow, fast | 성능, 속도, 느리, 빠르
memory | 메모리, 기억
cache | 캐시
log | 로그
monitoring, monitor | 모니터링
cloud | 클라우드
hosting, host | 호스팅
domain | 도메인
email | 이메일
image | 이미지
upload | 업로드
download | 다운로드
migration | 마이그레이션, 이전
schema | 스키마
query | 쿼리
table | 테이블
index | 인덱스
library, package, dependency | 라이브러리, 패키지, 의존성
framework | 프레임워크
repository, repo | 저장소, 레포
branch | 브랜치
commit | 커밋
merge | 머지, 병합
review | 리뷰
ticket | 티켓
sprint | 스프린트
meeting | 회의
customer | 고객
pricing, plan | 요금제, 플랜
free | 무료
`;
