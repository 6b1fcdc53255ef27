#include <SDL2/SDL.h>
#include <stdlib.h>
/* A bare SDL2 viewer's floor: a window of the size given (WxH), a GL renderer, one clear, then wait. */
int main(int c,char**v){int w=1280,h=800; if(c>1) sscanf(v[1],"%dx%d",&w,&h);
SDL_Init(SDL_INIT_VIDEO);SDL_Window*win=SDL_CreateWindow("bare",0,0,w,h,0);
SDL_Renderer*r=SDL_CreateRenderer(win,-1,SDL_RENDERER_ACCELERATED|SDL_RENDERER_PRESENTVSYNC);
SDL_SetRenderDrawColor(r,200,30,30,255);SDL_RenderClear(r);SDL_RenderPresent(r);
SDL_Event e;for(;;){if(SDL_WaitEvent(&e)&&e.type==SDL_QUIT)return 0;}}
