// Wake latency (notify -> woken running), timestamps on one clock: the waker keeps working
// 20 us after its notify; the woken slept IDLE us before the notify.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <stdatomic.h>
static double now_us(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static void spin_us(double us){double e=now_us()+us;while(now_us()<e);}
static pthread_mutex_t m=PTHREAD_MUTEX_INITIALIZER; static pthread_cond_t cv=PTHREAD_COND_INITIALIZER;
static long turn=0; static _Atomic double woke=0; static volatile int stop=0;
static void* partner(void*a){long want=1;pthread_mutex_lock(&m);while(!stop){while(turn<want&&!stop)pthread_cond_wait(&cv,&m);woke=now_us();want=turn+1;}pthread_mutex_unlock(&m);return 0;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int c,char**v){double idle=atof(v[1]);pthread_t p;pthread_create(&p,0,partner,0);spin_us(1000);
double lat[400];for(int i=0;i<400;i++){woke=0;pthread_mutex_lock(&m);turn++;double t=now_us();pthread_cond_broadcast(&cv);pthread_mutex_unlock(&m);spin_us(20);while(woke==0);lat[i]=woke-t;spin_us(idle);}
qsort(lat,400,sizeof(double),cmp);printf("idle %.0f us: wake latency median %.1f us, p25 %.1f, p75 %.1f\n",idle,lat[200],lat[100],lat[300]);
stop=1;pthread_mutex_lock(&m);turn+=10;pthread_cond_broadcast(&cv);pthread_mutex_unlock(&m);pthread_join(p,0);}
