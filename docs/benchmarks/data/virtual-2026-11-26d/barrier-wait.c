// Two threads, a generation barrier (mutex + condvar, as psmr's), the early
// scheduler's pattern on the moderate list: per write, both meet at a barrier,
// thread 0 executes the write (W us), both meet again, then each executes its
// reads (R us each; thread 0 k0, thread 1 k1 reads). Prints the wall time and
// the time beyond the critical path per blocking wait.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now_us(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static void spin_us(double us){double e=now_us()+us;while(now_us()<e);}
static pthread_mutex_t m=PTHREAD_MUTEX_INITIALIZER; static pthread_cond_t cv=PTHREAD_COND_INITIALIZER;
static int arrived=0; static long gen=0; static long blocked=0;
static void barrier(void){pthread_mutex_lock(&m);if(++arrived==2){arrived=0;gen++;pthread_cond_broadcast(&cv);}else{long g=gen;blocked++;while(g==gen)pthread_cond_wait(&cv,&m);}pthread_mutex_unlock(&m);}
#define N 400
static int k[2][N]; static double W=10.3,R=10.3;
static void* run(void*a){long me=(long)a;for(int i=0;i<N;i++){barrier();if(me==0)spin_us(W);barrier();for(int j=0;j<k[me][i];j++)spin_us(R);}return 0;}
int main(int c,char**v){srand(3);double ideal=0;for(int i=0;i<N;i++){k[0][i]=2+rand()%6;k[1][i]=2+rand()%6;int mx=k[0][i]>k[1][i]?k[0][i]:k[1][i];ideal+=W+mx*R;}
for(int rep=0;rep<5;rep++){blocked=0;pthread_t t[2];double s=now_us();for(long i=0;i<2;i++)pthread_create(&t[i],0,run,(void*)i);for(int i=0;i<2;i++)pthread_join(t[i],0);double e=now_us()-s;
printf("wall %.1f ms ideal %.1f ms blocking waits %ld extra per blocking wait %.1f us\n",e/1e3,ideal/1e3,blocked,(e-ideal)/blocked);}}
